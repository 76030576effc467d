import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/index.js';
import { crudRoutes } from '../shared/crud-routes.js';
import { programCreate, programItem, programListQuery, programUpdate } from './shapes.js';
import { programStore } from './store.js';

/** Hiring pipelines: what a participant's `pipeline_id` names. The contract gives programs no delete scope, so writing covers it. */
export function programRoutes(app: FastifyInstance, db: Db): void {
  crudRoutes(app, {
    noun: 'program',
    path: '/api/v1/programs',
    tag: 'programs',
    scopes: { read: 'programs:read', write: 'programs:write', delete: 'programs:write' },
    shapes: { create: programCreate, update: programUpdate, list: programListQuery, item: programItem },
    store: programStore(db),
  });
}
