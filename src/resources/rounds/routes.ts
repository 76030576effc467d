import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/index.js';
import { crudRoutes } from '../shared/crud-routes.js';
import { roundCreate, roundItem, roundListQuery, roundUpdate } from './shapes.js';
import { roundStore } from './store.js';

/** Rounds (stages): the ordered steps of a role, each with its interviewer. */
export function roundRoutes(app: FastifyInstance, db: Db): void {
  crudRoutes(app, {
    noun: 'round',
    path: '/api/v1/rounds',
    tag: 'rounds',
    scopes: { read: 'rounds:read', write: 'rounds:write', delete: 'rounds:delete' },
    shapes: { create: roundCreate, update: roundUpdate, list: roundListQuery, item: roundItem },
    store: roundStore(db),
  });
}
