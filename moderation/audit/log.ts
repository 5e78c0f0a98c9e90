import { APIError } from "encore.dev/api";
import { db } from "../db";
import type { Admin } from "./admin";

export type ActionKind =
  | "disable_link"
  | "enable_link"
  | "ban_host"
  | "unban_host"
  | "disable_account"
  | "enable_account"
  // A link's open reports closed: left as it is, or disabled (with a disable_link beside it).
  | "dismiss_reports"
  | "uphold_reports";

/** One recorded action. */
export interface ModerationAction {
  id: number;
  /** Who: the administrator's user id and email. */
  actorId: string;
  actorEmail: string;
  action: ActionKind;
  /** A link's code, a host, or an account's user id. */
  target: string;
  reason?: string;
  /** When it was done. */
  at: Date;
}

/** What each action endpoint answers. */
export interface ActionResult {
  /** The action as recorded. */
  action: ModerationAction;
  /** How many links it stopped or let redirect: 0 when they already were so. */
  links: number;
}

interface ActionRow {
  id: string; // BIGSERIAL: node-postgres reads int8 as a string
  actor_id: string;
  actor_email: string;
  action: ActionKind;
  target: string;
  reason: string | null;
  at: Date;
}

function actionOf(r: ActionRow): ModerationAction {
  return {
    id: Number(r.id),
    actorId: r.actor_id,
    actorEmail: r.actor_email,
    action: r.action,
    target: r.target,
    ...(r.reason !== null && { reason: r.reason }),
    at: r.at,
  };
}

/** Records an action that succeeded. */
export async function record(actor: Admin, action: ActionKind, target: string, reason: string | undefined): Promise<ModerationAction> {
  const row = await db.queryRow<ActionRow>`
    INSERT INTO actions (actor_id, actor_email, action, target, reason)
    VALUES (${actor.userID}, ${actor.email}, ${action}, ${target}, ${reason ?? null})
    RETURNING id, actor_id, actor_email, action, target, reason, at`;
  return actionOf(row!);
}

/** A page of the log, newest first, before the action `before` (a cursor) if given; one more than `limit` tells a next page exists. */
export async function page(limit: number, cursor: string | undefined): Promise<{ actions: ModerationAction[]; nextCursor?: string }> {
  const before = cursor === undefined ? null : cursorId(cursor);
  const rows = await db.queryAll<ActionRow>`
    SELECT id, actor_id, actor_email, action, target, reason, at FROM actions
    WHERE ${before}::bigint IS NULL OR id < ${before}::bigint
    ORDER BY id DESC
    LIMIT ${limit + 1}`;
  const actions = rows.slice(0, limit).map(actionOf);
  return rows.length > limit ? { actions, nextCursor: String(actions.at(-1)!.id) } : { actions };
}

/** The id a cursor stands for; 400 for anything nextCursor never returns. */
function cursorId(cursor: string): string {
  if (!/^[1-9][0-9]{0,17}$/.test(cursor)) throw APIError.invalidArgument("cursor must be the nextCursor of a previous page");
  return cursor;
}
