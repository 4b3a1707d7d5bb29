export * from './ach-calendar';
export * from './fields';
export * from './model';
export * from './reader';
export * from './returns';
export * from './writer';
