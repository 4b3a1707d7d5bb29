import type { EntityManager } from 'typeorm';
import type { Projection } from '@payments/eventsourcing';
import { OperatorState } from './operator.decider';
import { OperatorEvent } from './operator.events';

export const projectOperator: Projection<EntityManager, OperatorState, OperatorEvent> = async (tx, events) => {
  for (const event of events) {
    if (event.type === 'OperatorCreated.v1') {
      const d = event.data;
      await tx.query(`INSERT INTO operators (operator_id, name, role, client_id, secret_hash, created_at) VALUES ($1, $2, $3, $4, $5, $6)`, [d.operatorId, d.name, d.role, d.clientId, d.secretHash, d.createdAt]);
    } else {
      await tx.query(`UPDATE operators SET disabled_at = $2 WHERE operator_id = $1`, [event.data.operatorId, event.data.disabledAt]);
    }
  }
};
