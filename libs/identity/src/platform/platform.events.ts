export type PlatformCreated = {
  type: 'PlatformCreated.v1';
  data: { platformId: string; name: string; createdAt: string };
};

export type PlatformEvent = PlatformCreated;
