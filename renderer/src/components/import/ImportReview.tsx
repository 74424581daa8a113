// After an import: every imported launch that waits for approval, each listed in full (what it also does, command,
// arguments, environment), with a tick per launch, so the person reviews them on one page and approves the ticked
// ones with one action instead of visiting each server. Nothing is approved without being shown here.
import { Alert, Checkbox, Paper, Stack, Text, Title } from '@mantine/core';
import type { ServerDetail } from '../../../../shared/contract';
import { countLabel } from '../../ui/count';
import { cleanText, oneLine } from '../../ui/text';
import { LaunchDetails, LaunchWarnings } from '../servers/LaunchDetails';

/** What the review shows and which launches are ticked. */
export interface ImportReviewProps {
  /** Imported servers whose launch waits for approval. */
  launches: ServerDetail[];
  /** Ids ticked for approval. */
  chosen: ReadonlySet<string>;
  onToggle: (id: string, on: boolean) => void;
  /** Launches that could not be approved, with the reason. */
  refused: { id: string; error?: string }[];
  /** How many launches were approved so far. */
  approved: number;
}

/** The review of imported launches. */
export function ImportReview({ launches, chosen, onToggle, refused, approved }: ImportReviewProps) {
  return (
    <Stack gap="sm" component="section" aria-labelledby="import-review-title">
      <Title order={3} size="h5" id="import-review-title">
        Review and approve the imported launches
      </Title>
      {approved > 0 && (
        <Alert color="green" variant="light" p="sm" role="status">
          Approved {countLabel(approved, 'launch', 'launches')}; {approved === 1 ? 'it' : 'they'} may run now.
        </Alert>
      )}
      {refused.map((r) => (
        <Alert key={r.id} color="red" variant="light" p="sm" role="alert">
          {oneLine(launches.find((l) => l.id === r.id)?.name ?? r.id)} was not approved: {cleanText(r.error ?? '')}
        </Alert>
      ))}
      {launches.length > 0 && (
        <Text size="sm">
          {launches.length === 1 ? 'This server starts a program' : `These ${launches.length} servers start programs`} on your computer.
          Nothing runs until its launch is approved. Read each launch, untick any you do not want to run yet, then approve the ticked ones.
        </Text>
      )}
      {launches.map((d) => (
        <Paper key={d.id} withBorder p="sm" component="article" aria-label={`Launch of ${oneLine(d.name)}`}>
          <Stack gap="xs">
            <Checkbox
              label={`Approve ${oneLine(d.name)}`}
              checked={chosen.has(d.id)}
              disabled={(d.approval?.lostSecrets.length ?? 0) > 0}
              onChange={(e) => onToggle(d.id, e.currentTarget.checked)}
              fw={600}
            />
            {d.approval && <LaunchWarnings approval={d.approval} />}
            {d.approval && <LaunchDetails approval={d.approval} />}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
