/** What a resource module tells the rest of the service: sessions, webhooks and their outbox subscribe here. */
interface ResourceEvent {
  type: `${'participant' | 'role' | 'round' | 'interviewer' | 'program'}.created`;
  workspaceId: string;
  data: unknown;
}

export type EventSink = (event: ResourceEvent) => void;
