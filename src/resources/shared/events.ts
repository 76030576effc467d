import type { Db } from '../../platform/index.js';
import { publishEvent, type EventType } from '../webhooks/publish.js';
import { present, type Presented } from './present.js';

/**
 * In the transaction that inserted `row`: the resource as the API answers it, announced to the
 * workspace's webhooks as `type`. Only participants carry an `external_id`; other resources send null.
 */
export async function announceCreated<Row extends { workspace_id: string }>(db: Db, type: EventType, row: Row): Promise<Presented<Row>> {
  const data = present(row);
  await publishEvent(db, { workspaceId: row.workspace_id, type, data, externalId: null });
  return data;
}
