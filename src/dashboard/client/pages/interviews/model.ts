/**
 * The answers of the interview routes, as far as these pages read them. The zod shapes in src/resources/ are the
 * source of truth; the dashboard is its own feature folder and may not import them (.dependency-cruiser.cjs).
 */

export interface ListOf<T> {
  data: T[];
  meta: { page: number; pageSize: number; total: number; totalPages: number };
}

export interface One<T> {
  data: T;
}

export interface Role {
  id: string;
  template_name: string;
  use_case: string;
  description: string;
  objective: string;
  success_outcome: string;
  status: string;
  skills: string[];
  default_duration_minutes: number;
  default_difficulty: string;
  created_at: string;
}

export interface Round {
  id: string;
  role_id: string;
  stage_name: string;
  stage_type: string | null;
  duration_minutes: number;
  interviewer_id: string | null;
  stage_order: number;
  difficulty: string | null;
  pass_threshold: number | null;
  status: string;
}

export interface Dimension {
  name: string;
  description: string;
  weight: number;
}

export interface Interviewer {
  id: string;
  name: string;
  persona: string;
  useCase: string;
  evaluationDimensions: Dimension[];
  scoring: { scale?: string } | null;
  isPublic: boolean;
  createdAt: string;
}

export interface Participant {
  id: string;
  name: string;
  email: string;
  role_id: string | null;
  external_id: string | null;
  phone: string | null;
  tags: string[];
  status: string;
  created_at: string;
}

/** A hiring pipeline (`pipeline_id` of a participant). */
export interface Program {
  id: string;
  name: string;
}

export interface StatusChange {
  status: string;
  at: string;
  reason?: string;
}

export interface Session {
  id: string;
  candidate_id: string;
  role_id: string;
  interview_id: string;
  stage: string | null;
  scheduled_at: string | null;
  timezone: string;
  notes: string | null;
  status: string;
  failure_reason: string | null;
  status_history: StatusChange[];
  started_at: string | null;
  ended_at: string | null;
  created_at: string;
}

export interface Scorecard {
  session_id: string;
  scale: string;
  scores: { name: string; score: number; weight: number }[];
  weighted_score: number;
  pass_threshold: number | null;
  passed: boolean;
  recommendation: string;
  summary: string | null;
  created_at: string;
}

export interface Transcript {
  transcript: { speaker: string; text: string; at: string }[];
}

export interface Recording {
  recording_url: string;
}

export const SESSION_STATUSES = ['scheduled', 'in_progress', 'completed', 'failed', 'cancelled'];
export const LIFECYCLE_STATUSES = ['draft', 'active', 'archived'];
export const USE_CASES = ['hiring', 'admissions', 'training', 'custom_api'];
export const SCALES = ['0-10', '0-5', '0-100'];
/** The scale the API scores on when an interviewer names none. */
export const DEFAULT_SCALE = '0-10';
