import * as v from 'valibot';
import { LocationEmailSchema, LocationEntrySchema, LocationPhoneSchema } from './schema.ts';
import type { LocationEntry } from './types.ts';

/** A value in the schema's format (trimmed), else null; a malformed one is reported. */
function formatted(schema: typeof LocationEmailSchema | typeof LocationPhoneSchema, value: string | null | undefined, where: string, warn: (m: string) => void): string | null {
  if (!value?.trim() || value === 'null') return null;
  const result = v.safeParse(schema, value);
  if (result.success) return result.output;
  warn(`${where} is malformed and is ignored: ${value.slice(0, 50)}`);
  return null;
}

/**
 * Raw directory entries → domain entries: an entry that does not match the schema is left out and
 * reported; a malformed phone or e-mail address (an editor's typo must not become a broken
 * `tel:`/`mailto:` link) is dropped and reported; duplicate ids keep the first entry.
 */
export function mapLocations(raw: readonly unknown[], warn: (m: string) => void = () => {}): LocationEntry[] {
  const out: LocationEntry[] = [];
  const seen = new Set<string>();
  raw.forEach((item, i) => {
    const parsed = v.safeParse(LocationEntrySchema, item);
    if (!parsed.success) {
      warn(`locations: entry ${i} (${(item as { id?: unknown })?.id ?? 'no id'}) skipped: ${parsed.issues[0].message}`);
      return;
    }
    const l = parsed.output;
    if (seen.has(l.id)) {
      warn(`locations: duplicate id ${l.id} skipped`);
      return;
    }
    seen.add(l.id);
    const where = `locations ${l.id}`;
    out.push({
      ...l,
      phone: formatted(LocationPhoneSchema, l.phone, `${where}.phone`, warn),
      email: formatted(LocationEmailSchema, l.email, `${where}.email`, warn),
      contacts: l.contacts.map((c, j) => ({
        name: c.name,
        role: c.role?.trim() || null,
        phone: formatted(LocationPhoneSchema, c.phone, `${where}.contacts[${j}].phone`, warn),
        email: formatted(LocationEmailSchema, c.email, `${where}.contacts[${j}].email`, warn),
      })),
    });
  });
  return out;
}
