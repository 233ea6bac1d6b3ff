import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PATCHES, type PatchId, type PatchRecord } from '../../../workflows/patches';

/**
 * The patch registry says which recorded histories replay each branch of each patch; the
 * histories say which patch markers they hold. They must agree, or the registry's claim that a
 * branch is covered by the replay test is false.
 */
const ROOT = join(__dirname, '..', '..', '..');
const HISTORIES = join(ROOT, 'test', 'fixtures', 'histories');

/** The patch ids a recorded history's markers name (Temporal writes one `core_patch` marker per id, the first time it is asked). */
function markersOf(name: string): Set<string> {
  const history = JSON.parse(readFileSync(join(HISTORIES, `${name}.json`), 'utf8')) as { events: Array<{ markerRecordedEventAttributes?: { markerName?: string; details?: Record<string, { payloads?: Array<{ data?: string }> }> } }> };
  const ids = new Set<string>();
  for (const event of history.events) {
    const marker = event.markerRecordedEventAttributes;
    if (marker?.markerName !== 'core_patch') continue;
    const data = marker.details?.['patch-data']?.payloads?.[0]?.data;
    if (data) ids.add((JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as { id: string }).id);
  }
  return ids;
}

const fixtures = readdirSync(HISTORIES).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -'.json'.length));
const entries = Object.entries(PATCHES) as Array<[PatchId, PatchRecord]>;

test('every patch has a recorded history that took its new branch, and every history said to predate it does not hold its marker', () => {
  const problems: string[] = [];
  for (const [id, patch] of entries) {
    if (patch.after.length === 0) problems.push(`${id}: no recorded history takes the new branch`);
    for (const name of patch.after) if (!fixtures.includes(name) || !markersOf(name).has(id)) problems.push(`${id}: ${name}.json ${fixtures.includes(name) ? 'does not hold the marker' : 'does not exist'}`);
    for (const name of patch.before) if (!fixtures.includes(name) || markersOf(name).has(id)) problems.push(`${id}: ${name}.json ${fixtures.includes(name) ? 'holds the marker, so it is not from before' : 'does not exist'}`);
  }
  expect(problems).toEqual([]);
});

test('every patch marker in a recorded history is in the registry (resume markers aside)', () => {
  const unknown = fixtures.flatMap((name) => [...markersOf(name)].filter((id) => !(id in PATCHES) && !/^grove-resume-\d+$/.test(id)).map((id) => `${name}: ${id}`));
  expect(unknown).toEqual([]);
});

test('workflows name patch ids only through the registry', () => {
  const offenders: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && entry.name !== 'patches.ts') {
        readFileSync(path, 'utf8').split('\n').forEach((line, i) => {
          // A literal id in patched()/deprecatePatch(), or a constant that holds one without patchId().
          if (/(patched|deprecatePatch)\(\s*['"]/.test(line) || /=\s*['"]grove-[a-z-]+['"]/.test(line)) offenders.push(`${path.slice(ROOT.length + 1)}:${i + 1}: ${line.trim()}`);
        });
      }
    }
  };
  walk(join(ROOT, 'workflows'));
  expect(offenders).toEqual([]);
});

test('docs/durability.md lists every patch of the registry', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'durability.md'), 'utf8');
  expect(entries.map(([id]) => id).filter((id) => !doc.includes(`\`${id}\``))).toEqual([]);
});
