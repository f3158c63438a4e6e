// The parts a sender rule is made of, in the order they apply to a sender's mail: file it in a folder, keep
// only the newest N, remove what is older than N days. One table drives the contract's validation
// (api/rules.ts), the Organise dialog's fields and the rule in words (web/src/features/rules). No zod here:
// the rule in words loads with the subscription list, whose first load has a byte budget.
// A new part: docs/ARCHITECTURE.md, "Common changes".

export const EXPIRE_ACTIONS = ['trash', 'archive'] as const;
export type ExpireAction = (typeof EXPIRE_ACTIONS)[number];

/** The fields of a rule, as answers carry them and a PUT sends them (folderName: answers only). */
export interface RuleFields {
  folder: string | null;
  folderName?: string | null;
  keepNewest: number | null;
  expireAfterDays: number | null;
  expireAction: ExpireAction | null;
}

/** A part that counts: messages to keep, days to wait. */
export interface CountPart {
  /** The Organise dialog's switch. */
  label: string;
  /** The number field's label. */
  input: string;
  min: number;
  max: number;
  /** What the field holds when the switch is first turned on. */
  initial: number;
  message: string;
  /** This part of the rule in words ("keeps 5"). */
  words(count: number, rule: RuleFields): string;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

const keepNewest: CountPart = {
  label: 'Keep only the newest',
  input: 'Messages to keep',
  min: 1,
  max: 100,
  initial: 5,
  message: 'Keep between 1 and 100 messages.',
  words: (count) => `keeps ${count}`,
};

const expireAfterDays: CountPart = {
  label: 'Remove after a number of days',
  input: 'Days',
  min: 1,
  max: 3650,
  initial: 30,
  message: 'Choose between 1 and 3650 days.',
  words: (count, rule) =>
    `${rule.expireAction === 'archive' ? 'archives' : 'removes'} after ${plural(count, 'day', 'days')}`,
};

/** The counting parts, by the rule's field they fill, in the order they apply. */
export const COUNT_PARTS = { keepNewest, expireAfterDays } as const;
export type CountField = keyof typeof COUNT_PARTS;
export const COUNT_FIELDS = Object.keys(COUNT_PARTS) as CountField[];

/** The folder part: file the sender's inbox mail in a folder (a Gmail label, an Outlook folder). */
export const FOLDER_PART = {
  label: 'Move to folder',
  /** Longest folder name the picker accepts (IMAP servers allow more; labels and Outlook folders less). */
  maxLength: 200,
  message: 'Choose a folder, or name a new one.',
  /** This part in words, given the folder's name as the mailbox shows it. */
  words: (name: string) => `→ ${name}`,
} as const;

/** Every field that makes a rule do something: a rule with none of them set is empty. */
export const ACTIVE_FIELDS = ['folder', ...COUNT_FIELDS] as const;

/** Whether a stored or sent rule does anything. */
export function ruleDoesSomething(rule: Pick<RuleFields, (typeof ACTIVE_FIELDS)[number]>): boolean {
  return ACTIVE_FIELDS.some((field) => rule[field] !== null && rule[field] !== undefined);
}
