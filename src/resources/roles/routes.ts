import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/index.js';
import { crudRoutes } from '../shared/crud-routes.js';
import { roleCreate, roleItem, roleListQuery, roleUpdate } from './shapes.js';
import { roleStore } from './store.js';

/** Roles (templates): what a session assesses; its rounds and participants point to it. */
export function roleRoutes(app: FastifyInstance, db: Db): void {
  crudRoutes(app, {
    noun: 'role',
    path: '/api/v1/roles',
    tag: 'roles',
    scopes: { read: 'roles:read', write: 'roles:write', delete: 'roles:delete' },
    shapes: { create: roleCreate, update: roleUpdate, list: roleListQuery, item: roleItem },
    store: roleStore(db),
  });
}
