export * from './database';
export * from './eventually';
export * from './kafka';
export * from './ports';
export * from './http';
export * from './webauthn-authenticator';
export * from './consumer-doubles';
export * from './turnkey-clients';
