import type { z } from 'zod';

// An integration is a third-party service the product uses only when its keys are set (Google, Microsoft,
// Stripe, analytics, Contentful). Each owns its slice of the environment: the
// schema that reads its variables into its part of Config, whether that part turns it on, and what users
// are told while it is off. The variables' names go to the start-up log, README and .env.example, never
// to users: they cannot set them, and a public page should not describe the server's configuration.

/** The environment as the process has it: every variable may be missing. */
export type Env = Record<string, string | undefined>;

export interface Integration<Settings extends object = object> {
  /** What users and operators call it. */
  label: string;
  /** The variables that must all be set to turn it on (logged while it is off). */
  required: readonly string[];
  /** Environment -> its part of Config. Pure; fails when it is half set, naming the missing variable. */
  env: z.ZodType<Settings, Env>;
  /** Whether a config (its part of one) turns it on. */
  enabled(config: Settings): boolean;
  /** Why a feature of it cannot be used here, in the user's words: no variable names. */
  unavailableText: string;
}

/** An unset or empty variable (an uncommented `NAME=` line of .env.example) counts as not set. */
export function isSet(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}

/**
 * Variables that work only together (an OAuth client id and its secret): all set or none. Half a pair would
 * otherwise switch the integration off silently and show users "unavailable" while the operator believes
 * it configured, so the process refuses to start instead and names what is missing.
 */
export function allOrNone(label: string, names: readonly string[]) {
  return (env: Env, ctx: z.RefinementCtx): void => {
    const missing = names.filter((name) => !isSet(env[name]));
    if (missing.length === 0 || missing.length === names.length) return;
    const present = names.filter((name) => isSet(env[name]));
    for (const name of missing) {
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: `${label} needs ${names.join(' and ')} together: ${present.join(' and ')} is set, ${name} is not (set it, or unset both)`,
      });
    }
  };
}
