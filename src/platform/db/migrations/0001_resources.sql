CREATE TABLE "interviewers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"persona" text NOT NULL,
	"use_case" text NOT NULL,
	"evaluation_dimensions" jsonb NOT NULL,
	"context" jsonb,
	"interaction" jsonb,
	"scoring" jsonb,
	"output" jsonb NOT NULL,
	"additional_instructions" text,
	"is_public" boolean DEFAULT false NOT NULL,
	"forked_from" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "interviewers_workspace_key" UNIQUE("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "participants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"role_id" uuid,
	"external_id" text,
	"phone" text,
	"tags" text[] DEFAULT '{}' NOT NULL,
	"profile" jsonb,
	"background" jsonb,
	"resume_url" text,
	"pipeline_id" uuid,
	"metadata" jsonb,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "programs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "programs_workspace_key" UNIQUE("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"template_name" text NOT NULL,
	"use_case" text NOT NULL,
	"description" text NOT NULL,
	"objective" text NOT NULL,
	"success_outcome" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"domain" text,
	"level" text,
	"requirements" text,
	"skills" text[] DEFAULT '{}' NOT NULL,
	"soft_skills" text[] DEFAULT '{}' NOT NULL,
	"additional_notes" text,
	"default_duration_minutes" integer DEFAULT 30 NOT NULL,
	"default_difficulty" text DEFAULT 'intermediate' NOT NULL,
	"default_session_mode" text DEFAULT 'live_ai_interview' NOT NULL,
	"visibility" text DEFAULT 'team' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "roles_workspace_key" UNIQUE("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "rounds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"role_id" uuid NOT NULL,
	"stage_name" text NOT NULL,
	"stage_type" text,
	"duration_minutes" integer NOT NULL,
	"interviewer_id" uuid,
	"stage_order" integer NOT NULL,
	"difficulty" text,
	"pass_threshold" double precision,
	"automation_rule" text,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "interviewers" ADD CONSTRAINT "interviewers_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participants" ADD CONSTRAINT "participants_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participants" ADD CONSTRAINT "participants_role_fk" FOREIGN KEY ("workspace_id","role_id") REFERENCES "public"."roles"("workspace_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participants" ADD CONSTRAINT "participants_program_fk" FOREIGN KEY ("workspace_id","pipeline_id") REFERENCES "public"."programs"("workspace_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "programs" ADD CONSTRAINT "programs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roles" ADD CONSTRAINT "roles_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rounds" ADD CONSTRAINT "rounds_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rounds" ADD CONSTRAINT "rounds_role_fk" FOREIGN KEY ("workspace_id","role_id") REFERENCES "public"."roles"("workspace_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rounds" ADD CONSTRAINT "rounds_interviewer_fk" FOREIGN KEY ("workspace_id","interviewer_id") REFERENCES "public"."interviewers"("workspace_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "participants_email_key" ON "participants" USING btree ("workspace_id",lower("email"));--> statement-breakpoint
CREATE INDEX "participants_workspace_created" ON "participants" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE INDEX "rounds_role_order" ON "rounds" USING btree ("role_id","stage_order");