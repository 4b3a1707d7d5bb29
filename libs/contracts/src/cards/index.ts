export * from './cards';
export * from './cards.dto';
