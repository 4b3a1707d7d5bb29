export * from './platform-config.dto';
