// The roots of the query cache's keys; each feature's api/ folder names its own keys under them.
// Everything that belongs to the signed-in user sits under USER_KEY, so that signing in or out drops it
// in one call (the next user never sees the previous one's lists).

export const USER_KEY = ['user'] as const;

/** Whether the visitor is signed in: the query client marks it false when a call finds the session gone. */
export const SIGNIN_STATUS_KEY = ['signin-status'] as const;
