// The scan's searches as Gmail reads them: discovery's query with its `-from:` exclusions, a sender's
// `from:` query, and senders grouped into queries within a length budget.

/** `term -from:self -from:<counted senders, most messages first, as many as the length budget allows>`. */
export function discoveryQuery(
  term: string,
  self: string,
  senders: Readonly<Record<string, number>> = {},
  budget = 0,
): string {
  let q = `${term} -from:${searchAddress(self)}`;
  const ranked = Object.entries(senders).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  for (const [address] of ranked) {
    const part = ` -from:${searchAddress(address)}`;
    if (q.length + part.length > budget) break;
    q += part;
  }
  return q;
}

/** How many counted messages a discovery query's `-from:` exclusions leave out. */
export function excludedMail(q: string, senders: Readonly<Record<string, number>>): number {
  const padded = `${q} `;
  let total = 0;
  for (const [address, count] of Object.entries(senders)) {
    if (padded.includes(` -from:${searchAddress(address)} `)) total += count;
  }
  return total;
}

export function senderQuery(address: string): string {
  return `from:${searchAddress(address)}`;
}

/** An address as Gmail's search (and a filter's `from`) reads it: quoted unless plainly an address. */
export function searchAddress(address: string): string {
  return /^[a-z0-9._%+'@-]+$/i.test(address) ? address : `"${address.replace(/"/g, '')}"`;
}

/** Indexes of the senders in groups whose `is:unread {from:… …}` query fits the length budget. */
export function queryGroups(addresses: readonly string[], budget: number): number[][] {
  const groups: number[][] = [];
  let group: number[] = [];
  let length = 'is:unread {}'.length;
  for (const [i, address] of addresses.entries()) {
    const part = senderQuery(address).length + 1;
    if (group.length > 0 && length + part > budget) {
      groups.push(group);
      group = [];
      length = 'is:unread {}'.length;
    }
    group.push(i);
    length += part;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}
