import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { defineTool } from '../../activities/tools/define-tool';

/**
 * A tool with a side effect a person should approve: it appends a note to a file (one JSON line
 * per note). Declared `requiresApproval`, so a run that calls it waits for an `approve` update
 * (`grove approve <workflowId>`) before it runs, and runs it at most once.
 *
 * @example
 * const saveNote = noteTool('/tmp/notes.jsonl');
 * createGroveWorker({ ..., tools: [saveNote] });
 */
export function noteTool(file: string) {
  return defineTool({
    name: 'save_note',
    description: 'Saves a short note for the user (appends it to their notes). A person approves each note before it is saved.',
    parameters: z.object({ text: z.string().min(1).describe('The note to save.') }),
    strict: true,
    requiresApproval: true,
    run: ({ text }) => {
      mkdirSync(dirname(file), { recursive: true });
      appendFileSync(file, `${JSON.stringify({ text })}\n`);
      return `Saved the note "${text}".`;
    },
  });
}

/** `save_note` writing to `GROVE_NOTES_FILE` (default `.grove/notes.jsonl`). */
export const saveNote = noteTool(process.env.GROVE_NOTES_FILE ?? '.grove/notes.jsonl');
