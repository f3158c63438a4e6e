// Stripe's form encoding (https://docs.stripe.com/api, "Request bodies"): bracket syntax for nested
// objects (metadata[userId]=…), indexed or empty brackets for arrays (line_items[0][price]=…, expand[]=…).

export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

function segments(key: string): string[] {
  const open = key.indexOf('[');
  if (open <= 0) return [key];
  const parts = [key.slice(0, open)];
  for (const match of key.slice(open).matchAll(/\[([^\]]*)\]/g)) parts.push(match[1]!);
  return parts;
}

function arrayify(value: FormValue): FormValue {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(arrayify);
  const keys = Object.keys(value);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((k) => arrayify(value[k]!));
  }
  const out: FormObject = {};
  for (const k of keys) out[k] = arrayify(value[k]!);
  return out;
}

/** Parses an application/x-www-form-urlencoded body or query string into nested objects and arrays. */
export function parseForm(text: string): FormObject {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = segments(key);
    let node: FormObject = root;
    for (let i = 0; i < path.length; i++) {
      const last = i === path.length - 1;
      // `a[]` appends: give it the next free numeric key so arrayify turns it into an array.
      const seg = path[i] === '' ? String(Object.keys(node).length) : path[i]!;
      if (last) {
        node[seg] = value;
      } else {
        const next = node[seg];
        if (next === undefined || typeof next === 'string' || Array.isArray(next)) node[seg] = {};
        node = node[seg] as FormObject;
      }
    }
  }
  return arrayify(root) as FormObject;
}

/** A string parameter or undefined. */
export function str(form: FormObject, key: string): string | undefined {
  const v = form[key];
  return typeof v === 'string' ? v : undefined;
}

/** A metadata-like map of strings (Stripe's metadata: up to 50 keys, string values). */
export function stringMap(value: FormValue | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) if (typeof v === 'string' && v !== '') out[k] = v;
  }
  return out;
}

/** A list parameter (`expand[]=a&expand[]=b`, or `expand[0]=a`). */
export function list(value: FormValue | undefined): FormValue[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
