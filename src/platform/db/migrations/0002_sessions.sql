CREATE TABLE "outbox_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"message_id" uuid NOT NULL,
	"attempt" integer NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	"outcome" text NOT NULL,
	"status_code" integer,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "outbox_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid,
	"kind" text NOT NULL,
	"topic" text NOT NULL,
	"target_id" uuid,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer NOT NULL,
	"next_attempt_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"claimed_by" text,
	"claimed_until" timestamp (3) with time zone,
	"last_status_code" integer,
	"last_error" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "scorecards" (
	"session_id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"interviewer_id" uuid,
	"scale" text NOT NULL,
	"scores" jsonb NOT NULL,
	"weighted_score" double precision NOT NULL,
	"pass_threshold" double precision,
	"passed" boolean NOT NULL,
	"recommendation" text NOT NULL,
	"summary" text,
	"transcript" jsonb,
	"recording_url" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"candidate_id" uuid NOT NULL,
	"role_id" uuid NOT NULL,
	"interview_id" uuid NOT NULL,
	"stage" text,
	"idempotency_key" text,
	"scheduled_at" timestamp (3) with time zone,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"notes" text,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"forced" boolean DEFAULT false NOT NULL,
	"failure_reason" text,
	"status_history" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"started_at" timestamp (3) with time zone,
	"ended_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sessions_workspace_key" UNIQUE("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"url" text NOT NULL,
	"events" text[] NOT NULL,
	"description" text,
	"secret" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "participants" ADD COLUMN "resume_status" text;--> statement-breakpoint
ALTER TABLE "participants" ADD COLUMN "resume_error" text;--> statement-breakpoint
ALTER TABLE "participants" ADD COLUMN "resume_text" text;--> statement-breakpoint
ALTER TABLE "participants" ADD COLUMN "resume_fetched_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "participants" ADD CONSTRAINT "participants_workspace_key" UNIQUE("workspace_id","id");--> statement-breakpoint
ALTER TABLE "rounds" ADD CONSTRAINT "rounds_workspace_key" UNIQUE("workspace_id","id");--> statement-breakpoint
ALTER TABLE "outbox_attempts" ADD CONSTRAINT "outbox_attempts_message_fk" FOREIGN KEY ("message_id") REFERENCES "public"."outbox_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_workspace_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scorecards" ADD CONSTRAINT "scorecards_session_fk" FOREIGN KEY ("workspace_id","session_id") REFERENCES "public"."sessions"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_participant_fk" FOREIGN KEY ("workspace_id","candidate_id") REFERENCES "public"."participants"("workspace_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_role_fk" FOREIGN KEY ("workspace_id","role_id") REFERENCES "public"."roles"("workspace_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_round_fk" FOREIGN KEY ("workspace_id","interview_id") REFERENCES "public"."rounds"("workspace_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbox_attempts_message" ON "outbox_attempts" USING btree ("message_id","attempt");--> statement-breakpoint
CREATE INDEX "outbox_messages_due" ON "outbox_messages" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "outbox_messages_target" ON "outbox_messages" USING btree ("target_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_idempotency_key" ON "sessions" USING btree ("workspace_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_open_key" ON "sessions" USING btree ("workspace_id","candidate_id","interview_id") WHERE status IN ('scheduled', 'in_progress') AND NOT forced;--> statement-breakpoint
CREATE INDEX "sessions_workspace_created" ON "sessions" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE INDEX "sessions_candidate" ON "sessions" USING btree ("candidate_id");
