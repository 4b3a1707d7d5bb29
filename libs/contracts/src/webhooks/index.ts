export * from './webhook-deliveries.dto';
