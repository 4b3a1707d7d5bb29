export * from './uma.dto';
