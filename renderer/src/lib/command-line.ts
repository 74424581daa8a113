// Splits a pasted command line ("npx -y pkg arg", with quotes) into a program and its arguments, the way a POSIX
// shell would split words, without running or expanding anything. Switchboard starts programs without a shell, so
// the split is only offered: the person sees the result before it is used.

/** A command line split into words. */
export interface SplitCommand {
  /** The program (first word). */
  command: string;
  /** The remaining words, quotes removed. */
  args: string[];
  /** Unquoted shell operators (|, &&, ;, >, <, $(…), backticks) that a shell would interpret and we pass literally. */
  shellOperators: string[];
}

const OPERATOR = /^(\|\|?|&&?|;|>>?|<|2>&1|\$\(.*|`.*)$/;

/** Splits `text` into words, or returns null when a quote is left open or there is nothing to split. */
export function splitCommandLine(text: string): SplitCommand | null {
  const words: string[] = [];
  const operators: string[] = [];
  let word = '';
  let inWord = false;
  let quoted = false;
  let quote: '"' | "'" | null = null;
  const src = text.trim();
  const flush = (): void => {
    if (!inWord) return;
    if (!quoted && OPERATOR.test(word)) operators.push(word);
    words.push(word);
    word = '';
    inWord = false;
    quoted = false;
  };
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && i + 1 < src.length && '"\\$`'.includes(src[i + 1]!)) word += src[++i]!;
      else word += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
      quoted = true;
    } else if (c === '\\' && i + 1 < src.length) {
      const next = src[++i]!;
      if (next !== '\n') word += next;
      inWord = true;
    } else if (/\s/.test(c)) flush();
    else {
      word += c;
      inWord = true;
    }
  }
  if (quote !== null) return null;
  flush();
  const [command, ...args] = words;
  if (command === undefined || command === '') return null;
  return { command, args, shellOperators: operators };
}

/** True when a Command field holds more than one word, i.e. a whole command line worth offering to split. */
export function looksLikeCommandLine(text: string): boolean {
  const split = splitCommandLine(text);
  return split !== null && split.args.length > 0;
}
