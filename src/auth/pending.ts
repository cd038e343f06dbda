import { authError, AuthErrorCode } from './errors.js';
import type { CredentialStore } from './store.js';

/** A sign-in started (authorization request sent) and not completed yet. */
export interface PendingSignIn {
  readonly state: string;
  readonly verifier: string;
  readonly redirectUri: string;
  readonly createdAt: number;
}

/** The pending sign-ins of one client, and the `state`s already used, so a replay is told from a forgery. */
interface PendingRecord {
  readonly pending: readonly PendingSignIn[];
  readonly used: readonly { readonly state: string; readonly at: number }[];
}

/** As long as the server keeps a sign-in interaction (settings.ts `interaction`): a pending sign-in older is dead. */
export const PENDING_LIFETIME_MS = 15 * 60_000;
/** Used states remembered, newest first; enough to recognise a reload of the redirect page. */
const USED_KEPT = 20;

const live = (record: PendingRecord | undefined, now: number): PendingRecord => ({
  pending: (Array.isArray(record?.pending) ? record.pending : []).filter(
    (entry) => now - entry.createdAt < PENDING_LIFETIME_MS,
  ),
  used: (Array.isArray(record?.used) ? record.used : []).filter((entry) => now - entry.at < PENDING_LIFETIME_MS),
});

export async function addPending(store: CredentialStore, key: string, entry: PendingSignIn): Promise<void> {
  await store.update<PendingRecord>(key, (record) => {
    const { pending, used } = live(record, entry.createdAt);
    return { pending: [...pending, entry], used };
  });
}

/** The pending sign-in for `state` without using it up, if there is one. */
export async function peekPending(
  store: CredentialStore,
  key: string,
  state: string | null,
  now: number,
): Promise<PendingSignIn | undefined> {
  return live(await store.get<PendingRecord>(key), now).pending.find((entry) => entry.state === state);
}

/** Drops a sign-in that will not complete (its popup was closed). */
export async function dropPending(store: CredentialStore, key: string, state: string, now: number): Promise<void> {
  await store.update<PendingRecord>(
    key,
    (record) =>
      record && { ...live(record, now), pending: live(record, now).pending.filter((entry) => entry.state !== state) },
  );
}

/**
 * Takes the pending sign-in that `state` names, in one store transaction: it is gone after this first use. The
 * failures are told apart: no `state` at all, a `state` already used (a reload or a replay), a `state` that is not
 * ours while a sign-in is pending (another sign-in's, or forged), and nothing pending.
 */
export async function takePending(
  store: CredentialStore,
  key: string,
  state: string | null,
  now: number,
): Promise<PendingSignIn> {
  if (state === null || state === '')
    throw authError(AuthErrorCode.stateMissing, 'the sign-in redirect carries no "state"; start the sign-in again');
  let taken: PendingSignIn | undefined;
  let outcome: AuthErrorCode = AuthErrorCode.noPendingSignIn;
  await store.update<PendingRecord>(key, (record) => {
    const { pending, used } = live(record, now);
    taken = pending.find((entry) => entry.state === state);
    if (!taken) {
      if (used.some((entry) => entry.state === state)) outcome = AuthErrorCode.stateReplayed;
      else if (pending.length > 0) outcome = AuthErrorCode.stateMismatch;
      return record;
    }
    return {
      pending: pending.filter((entry) => entry !== taken),
      used: [{ state, at: now }, ...used].slice(0, USED_KEPT),
    };
  });
  if (taken) return taken;
  throw authError(outcome, MESSAGES[outcome as keyof typeof MESSAGES]);
}

const MESSAGES = {
  [AuthErrorCode.stateReplayed]: 'this sign-in redirect was already used; start the sign-in again',
  [AuthErrorCode.stateMismatch]:
    'the "state" of the sign-in redirect is not the one of the sign-in in progress; start the sign-in again',
  [AuthErrorCode.noPendingSignIn]: 'no sign-in was started here (or it expired); start the sign-in again',
};
