// The Client features panel's first lines, following the defaults a server added in the dialog really gets (they
// once said everything was off while questions are on by default).
import { FEATURE_LABELS } from '../../../../shared/domains/protocol-text';
import { emptyModel } from '../servers/server-form-model';

/** The panel's introduction, naming which switches start on for a server added here. */
export function clientFeaturesIntro(questionsOnByDefault: boolean = emptyModel().elicitation): string {
  const start = questionsOnByDefault
    ? `“${FEATURE_LABELS.elicitation}” is on for a server you add here; sampling, shared folders and tasks are off until you turn them on.`
    : 'Everything here is off until you turn it on.';
  return `What this server may ask of Switchboard. ${start} A change reconnects the server so it learns what Switchboard now offers.`;
}
