export * from './verification-enums';
export * from './verification';
export * from './verifications.dto';
export * from './beneficial-owners.dto';
