/**
 * Console accounts (decision 0017): people who sign in to the console, what they may do in each
 * dashboard, how others are invited, and their sessions. Passwords, session ids and invitation
 * tokens are stored only as hashes.
 */

export const ROLES = ['owner', 'analyst'] as const;
/** `owner`: everything, tokens, webhooks, members and settings included; `analyst`: orders, reports, spend, links. */
export type Role = (typeof ROLES)[number];

export interface User {
  readonly id: string;
  /** Lower-cased: emails are compared case-insensitively. */
  readonly email: string;
  readonly passwordHash: string;
  readonly createdAt: Date;
  readonly passwordChangedAt: Date;
}

export interface Membership {
  readonly userId: string;
  readonly dashboardId: string;
  readonly role: Role;
  readonly createdAt: Date;
}

export interface Invitation {
  readonly id: string;
  readonly dashboardId: string;
  readonly email: string;
  readonly role: Role;
  /** SHA-256 of the token in the invitation link, which is shown once. */
  readonly tokenHash: string;
  readonly invitedBy: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  readonly acceptedAt?: Date;
}

export interface Session {
  /** SHA-256 of the session id in the cookie. */
  readonly idHash: string;
  readonly userId: string;
  readonly createdAt: Date;
  readonly lastSeenAt: Date;
  /** The absolute end: 7 days after sign-in, whatever the activity. */
  readonly expiresAt: Date;
}

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;
export const MAX_EMAIL_LENGTH = 254;
export const SESSION_IDLE_MS = 12 * 3_600_000;
export const SESSION_ABSOLUTE_MS = 7 * 86_400_000;
export const INVITATION_TTL_MS = 7 * 86_400_000;

/** How an email is stored and compared: trimmed and lower-cased. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** A plausible address: one `@`, something on each side, a dot in the domain, no spaces; at most 254 characters. */
export const isEmail = (email: string): boolean => email.length <= MAX_EMAIL_LENGTH && /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(email);

/**
 * NIST SP 800-63B: 12 to 128 characters, no composition rules. Length counts code points, so an
 * emoji is one character. Undefined when acceptable, else why not.
 */
export const passwordProblem = (password: string): string | undefined => {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `must have at least ${PASSWORD_MIN_LENGTH} characters`;
  if (length > PASSWORD_MAX_LENGTH) return `must have at most ${PASSWORD_MAX_LENGTH} characters`;
  return undefined;
};

/** Whether the session is over at `now`: 12 h without activity, or 7 days after sign-in. */
export const sessionEnded = (session: Session, now: Date): boolean =>
  now.getTime() >= session.expiresAt.getTime() || now.getTime() - session.lastSeenAt.getTime() >= SESSION_IDLE_MS;
