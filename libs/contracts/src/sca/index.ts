export * from './sca-passkeys.dto';
