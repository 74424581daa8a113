// The names of the per-server client feature settings, and what a tool that needs one says: one wording for the
// settings panel and for the messages calls show.

/** A client feature a server may need and the person turns on per server. */
export type ClientFeature = 'sampling' | 'roots' | 'elicitation' | 'tasks';

/** The label of each setting in the server's "Client features" panel. */
export const FEATURE_LABELS: Record<ClientFeature, string> = {
  elicitation: 'Let the server ask questions',
  sampling: 'Answer sampling requests',
  roots: 'Share folders (roots)',
  tasks: 'Run tools as tasks',
};

const NEEDS: Record<ClientFeature, string> = {
  elicitation: 'This tool asks you questions (elicitation).',
  sampling: 'This tool needs sampling: the server asks the client for a model reply.',
  roots: 'This tool needs roots: the folders you share with the server.',
  tasks: 'This tool runs as a task.',
};

/** What a tool that needs a setting which is off says: which setting turns it on. */
export function needsSettingMessage(feature: ClientFeature): string {
  return `${NEEDS[feature]} Turn on '${FEATURE_LABELS[feature]}' in this server's settings (Client features).`;
}

/** What a tool says when the person chose not to let the server ask questions. */
export const CONSENT_DENIED_MESSAGE =
  "This tool asks you questions (elicitation), and you chose not to let this server ask. Change 'Questions from this server' in its settings (Client features).";
