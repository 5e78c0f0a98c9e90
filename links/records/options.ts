import { APIError } from "encore.dev/api";
import { routeFirstSegments } from "../shortening/route-segments";
import { maxPasswordLength } from "../../link-rules/passwords";

// The rules for what a link's owner may set, shared by creating (POST /shorten, bulk) and
// changing (PATCH /links/:code), so both refuse the same values with the same messages.

/** 3 to 64 letters, digits, "-" and "_": safe in a path segment, and never a random code's shape alone. */
const aliasShape = /^[A-Za-z0-9_-]{3,64}$/;

/**
 * First path segments an alias may not take besides the routes': the front end's asset
 * folder (web/static.ts serves frontend/dist, whose build puts its assets under _app/).
 */
const assetSegments: ReadonlySet<string> = new Set(["_app"]);

export const maxClicksLimit = 1_000_000_000;
export const maxTitleLength = 200;
export const maxDescriptionLength = 1000;

/** A custom code: its shape, and never a route's or an asset folder's first segment, in any case. */
export function checkAlias(alias: string): string {
  if (!aliasShape.test(alias)) {
    throw APIError.invalidArgument("alias must be 3 to 64 characters of letters, digits, - and _");
  }
  const lower = alias.toLowerCase();
  if (routeFirstSegments.has(lower) || assetSegments.has(lower)) {
    throw APIError.invalidArgument(`alias "${alias}" is reserved: the service's own address /${lower} uses it`);
  }
  return alias;
}

/** An end date: a valid instant in the future. */
export function checkExpiresAt(expiresAt: Date, now: number = Date.now()): Date {
  if (!(expiresAt instanceof Date) || Number.isNaN(expiresAt.getTime())) {
    throw APIError.invalidArgument("expiresAt must be a date and time such as 2030-01-31T12:00:00Z");
  }
  if (expiresAt.getTime() <= now) throw APIError.invalidArgument("expiresAt must be in the future");
  return expiresAt;
}

export function checkMaxClicks(maxClicks: number): number {
  if (!Number.isInteger(maxClicks) || maxClicks < 1 || maxClicks > maxClicksLimit) {
    throw APIError.invalidArgument(`maxClicks must be a whole number from 1 to ${maxClicksLimit}`);
  }
  return maxClicks;
}

export function checkPassword(password: string): string {
  if (password.length < 1 || password.length > maxPasswordLength) {
    throw APIError.invalidArgument(`password must be 1 to ${maxPasswordLength} characters`);
  }
  return password;
}

export function checkTitle(title: string): string {
  if (title.length > maxTitleLength) throw APIError.invalidArgument(`title must be at most ${maxTitleLength} characters`);
  return title;
}

export function checkDescription(description: string): string {
  if (description.length > maxDescriptionLength) {
    throw APIError.invalidArgument(`description must be at most ${maxDescriptionLength} characters`);
  }
  return description;
}

/** The statuses a browser's redirect may answer with (url migration 17's check): permanent or not, method kept or not. */
export const redirectTypes = [301, 302, 307, 308] as const;
export type RedirectType = (typeof redirectTypes)[number];

export function checkRedirectType(redirectType: number): RedirectType {
  if (!(redirectTypes as readonly number[]).includes(redirectType)) {
    throw APIError.invalidArgument(`redirectType must be one of ${redirectTypes.join(", ")}`);
  }
  return redirectType as RedirectType;
}

/** A start: any valid instant (one in the past starts the link at once); before `expiresAt` when both are given. */
export function checkStartsAt(startsAt: Date, expiresAt?: Date | null): Date {
  if (!(startsAt instanceof Date) || Number.isNaN(startsAt.getTime())) {
    throw APIError.invalidArgument("startsAt must be a date and time such as 2030-01-31T12:00:00Z");
  }
  if (expiresAt instanceof Date && startsAt.getTime() >= expiresAt.getTime()) {
    throw APIError.invalidArgument("startsAt must be before expiresAt");
  }
  return startsAt;
}

/** A yes/no option: JSON true or false, nothing else (the request's schema may let other values by). */
export function checkFlag(name: string, value: boolean): boolean {
  if (typeof value !== "boolean") throw APIError.invalidArgument(`${name} must be true or false`);
  return value;
}
