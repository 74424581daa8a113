// Reading a collection file for `switchboard run`: the format itself (schema, parsing) is shared with the renderer.
import { readFileSync } from 'node:fs';
import { CliError } from '../cli-error.js';
import { isYamlName, parseCollection, type CollectionCall } from '../../../shared/collections/collection.js';

export {
  CollectionSchema,
  collectionJsonSchema,
  type Collection,
  type CollectionCall,
  type Expectations,
} from '../../../shared/collections/collection.js';

/** Reads and checks one collection file (.yaml/.yml as YAML, anything else as JSON). */
export function loadCollection(file: string): { name: string; file: string; calls: CollectionCall[] } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw CliError.usage(`Cannot read the collection ${file}: ${(err as Error).message}`);
  }
  const parsed = parseCollection(text, isYamlName(file));
  if (!parsed.ok) throw CliError.usage(`The collection ${file} ${parsed.message}`);
  return { name: parsed.name ?? file, file, calls: parsed.calls };
}
