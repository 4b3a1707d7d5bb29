export * from './invitations.dto';
export * from './invitations.rpc';
export * from './sandbox-uma-receive.dto';
