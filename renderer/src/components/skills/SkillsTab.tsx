// A server's skills (MCP Skills extension): the listing with skipped entries, and for the chosen skill its
// frontmatter, verification state per file, its SKILL.md through the safe Markdown renderer (only once it verified),
// each file readable, and approval bound to the manifest digests. Every string shown is untrusted server data.
import { useEffect, useState } from 'react';
import { Alert, Badge, Button, Group, Loader, Paper, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconRefresh, IconShieldCheck } from '@tabler/icons-react';
import type { SkillApproval, SkillFileCheck, SkillView } from '../../../../shared/domains/skills';
import { useStore } from '../../store';
import { EXTRAS_LIMITS, selectSkillDetail, selectSkillList } from '../../store/skills-slice';
import { CodeBlock } from '../../ui/CodeBlock';
import { Lazy, lazyNamed } from '../../ui/lazy';
import { cleanText, oneLine, sizeLabel } from '../../ui/text';

const Markdown = lazyNamed(() => import('../resources/Markdown'), 'Markdown');

const APPROVAL: Record<SkillApproval, { label: string; color: string }> = {
  none: { label: 'Not approved', color: 'gray' },
  approved: { label: 'Approved', color: 'green' },
  changed: { label: 'Changed since approved', color: 'orange' },
  unbindable: { label: 'Dynamic: cannot be approved', color: 'gray' },
};

/** Files not in the manifest shown before "show all" (the walk itself is bounded by EXTRAS_LIMITS). */
const EXTRAS_FIRST = 10;

const STATE_COLOR: Record<SkillFileCheck['state'], string> = { verified: 'green', mismatch: 'red', dynamic: 'gray', unread: 'orange' };

function fileType(path: string, mimeType?: string): string {
  if (mimeType) return oneLine(mimeType);
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1];
  return ext ? ext.toLowerCase() : 'file';
}

/** The body of a SKILL.md: its frontmatter is shown above as data, not rendered as Markdown. */
function withoutFrontmatter(text: string): string {
  return text.replace(/^---\r?\n[\s\S]*?\r?\n---(?:\r?\n|$)/, '');
}

function SkillDetail({ serverId, skill, resourcesOff }: { serverId: string; skill: SkillView; resourcesOff: boolean }) {
  const detail = useStore(selectSkillDetail(serverId, skill.uri));
  const verify = useStore((s) => s.verifySkill);
  const readFile = useStore((s) => s.readSkillFile);
  const approve = useStore((s) => s.approveSkill);
  useEffect(() => {
    // Skill files are resources: with resources off nothing is read (the tab says so instead).
    if (!resourcesOff) void verify(serverId, skill.uri);
  }, [serverId, skill.uri, verify, resourcesOff]);
  const v = detail?.verification;
  const checks = new Map((v?.files ?? []).map((f) => [f.uri, f]));
  const files =
    skill.files === 'dynamic'
      ? (v?.files ?? []).map((f) => ({ uri: f.uri, path: f.path, size: f.readBytes ?? 0, nestedSkill: false }))
      : skill.files;
  const ownShown = detail?.file?.uri === skill.uri;
  const shownUris = new Set(files.map((f) => f.uri));
  const extras = resourcesOff ? [] : (detail?.extras?.files ?? []).filter((f) => !shownUris.has(f.uri));
  const extraLabel = skill.files === 'dynamic' ? 'no manifest' : 'not in the manifest';
  const [allExtras, setAllExtras] = useState(false);
  const extrasShown = allExtras ? extras : extras.slice(0, EXTRAS_FIRST);
  return (
    <Stack gap="sm" data-testid="skill-detail">
      <Group justify="space-between" wrap="wrap">
        <div>
          <Title order={4}>{cleanText(skill.label)}</Title>
          <Text size="sm" c="dimmed">
            {cleanText(skill.uri)}
          </Text>
        </div>
        <Group gap="xs">
          <Badge color={APPROVAL[skill.approval].color} variant="light" data-testid="skill-approval">
            {APPROVAL[skill.approval].label}
          </Badge>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconRefresh size={14} />}
            onClick={() => void verify(serverId, skill.uri)}
            loading={detail?.verifying === true}
            disabled={resourcesOff}
          >
            Verify again
          </Button>
          {skill.approval !== 'approved' && skill.approval !== 'unbindable' && (
            <Button
              size="xs"
              leftSection={<IconShieldCheck size={14} />}
              disabled={resourcesOff || v?.state !== 'verified'}
              loading={detail?.approving === true}
              onClick={() => void approve(serverId, skill.uri)}
            >
              {skill.approval === 'changed' ? 'Approve again' : 'Approve'}
            </Button>
          )}
        </Group>
      </Group>
      {skill.approval === 'changed' && (
        <Alert color="orange" icon={<IconAlertTriangle size={16} />} title="This skill changed since you approved it">
          Its files or digests differ from the ones you approved. Check it again before approving.
        </Alert>
      )}
      {detail?.approveError && <Alert color="red">{cleanText(detail.approveError)}</Alert>}
      {detail?.error && <Alert color="red">{cleanText(detail.error)}</Alert>}
      {detail?.verifying && !v && (
        <Group gap="xs">
          <Loader size="xs" aria-hidden />
          <Text size="sm">Reading and checking the skill's files…</Text>
        </Group>
      )}
      {v?.state === 'verified' && (
        <Alert color="green" icon={<IconCircleCheck size={16} />} data-testid="skill-verification">
          Verified: every file matches the manifest's size and SHA-256 digest.
        </Alert>
      )}
      {v?.state === 'mismatch' && (
        <Alert color="red" icon={<IconAlertTriangle size={16} />} title="Verification failed" data-testid="skill-verification">
          {cleanText(v.mismatch?.uri ?? '')} does not match the manifest: {cleanText(v.mismatch?.reason ?? '')}. The skill is not used or
          approved until it verifies.
        </Alert>
      )}
      {v?.state === 'dynamic' && (
        <Alert color="gray" data-testid="skill-verification">
          Dynamic skill: the server publishes no digests, so its content cannot be verified or approved.
        </Alert>
      )}

      <Paper withBorder p="sm">
        <Stack gap={4}>
          <Text size="sm">
            <b>Name:</b> {cleanText(skill.name)}
          </Text>
          <Text size="sm">
            <b>Description:</b> {cleanText(skill.description)}
          </Text>
          {skill.license !== undefined && (
            <Text size="sm">
              <b>Licence:</b> {cleanText(skill.license)}
            </Text>
          )}
          {skill.allowedTools !== undefined && (
            <Text size="sm">
              <b>Allowed tools (requested, not granted):</b> <code>{cleanText(skill.allowedTools)}</code>
            </Text>
          )}
          {skill.fields.map((f) => (
            <Text size="sm" key={f.key}>
              <b>{cleanText(f.key)}:</b> <code>{cleanText(f.value)}</code>
            </Text>
          ))}
        </Stack>
      </Paper>

      <Title order={5}>Files</Title>
      <Table.ScrollContainer minWidth={360} type="native">
        <Table withTableBorder striped aria-label="Skill files">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Path and type</Table.Th>
              <Table.Th>Size</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {files.map((f) => {
              const c = checks.get(f.uri);
              return (
                <Table.Tr key={f.uri}>
                  <Table.Td style={{ overflowWrap: 'break-word' }}>
                    {cleanText(f.path)}
                    {f.nestedSkill && (
                      <Badge
                        ml="xs"
                        size="xs"
                        variant="outline"
                        color="gray"
                        title="A nested skill's SKILL.md: a supporting file here, never activated from this skill"
                      >
                        nested skill
                      </Badge>
                    )}
                    {/* Under the path, not a column of its own: a mime type is wide and the detail pane narrow. */}
                    <Text size="xs" c="dimmed">
                      {fileType(f.path, c?.mimeType)}
                    </Text>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{sizeLabel(f.size)}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {c ? (
                      // Plain text, not a Badge: a Badge cuts its label in a narrow column ("VERI…").
                      <Text
                        span
                        size="xs"
                        fw={700}
                        tt="uppercase"
                        style={{ color: `var(--mantine-color-${STATE_COLOR[c.state]}-text)` }}
                        title={c.reason ? cleanText(c.reason) : undefined}
                      >
                        {c.state}
                      </Text>
                    ) : (
                      '—'
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      disabled={resourcesOff || c?.state === 'mismatch'}
                      onClick={() => void readFile(serverId, skill.uri, f.uri)}
                      aria-label={`Read ${cleanText(f.path)}`}
                    >
                      Read
                    </Button>
                  </Table.Td>
                </Table.Tr>
              );
            })}
            {extrasShown.map((f) => (
              <Table.Tr key={f.uri} data-testid="skill-extra-file">
                <Table.Td style={{ overflowWrap: 'break-word' }}>
                  {cleanText(f.path)}
                  <Text size="xs" c="dimmed">
                    {fileType(f.path, f.mimeType)} · {extraLabel} (not verified, not served)
                  </Text>
                </Table.Td>
                <Table.Td>—</Table.Td>
                <Table.Td colSpan={2} style={{ whiteSpace: 'nowrap' }}>
                  <Text span size="xs" fw={700} tt="uppercase" style={{ color: 'var(--mantine-color-orange-text)' }}>
                    unlisted
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {extras.length > EXTRAS_FIRST && (
        <Button size="compact-xs" variant="subtle" onClick={() => setAllExtras(!allExtras)} style={{ alignSelf: 'flex-start' }}>
          {allExtras ? 'Show fewer files not in the manifest' : `Show all ${extras.length} files not in the manifest`}
        </Button>
      )}
      {extras.length > 0 && (
        <Text size="xs" c="dimmed" data-testid="skill-extras-note">
          The server's directory has {extras.length === 1 ? 'a file' : 'files'} the skill's manifest does not list. They are not part of the
          skill you see verified: Switchboard does not read them here and never serves them to gateway clients.
          {detail?.extras?.capped &&
            ` There may be more: Switchboard looks into at most ${EXTRAS_LIMITS.dirs} of its directories and shows at most ${EXTRAS_LIMITS.files} such files.`}
        </Text>
      )}
      {!resourcesOff && detail?.extrasError && <Alert color="orange">{cleanText(detail.extrasError)}</Alert>}
      {detail?.fileError && <Alert color="red">{cleanText(detail.fileError)}</Alert>}
      {detail?.file && (
        <Paper withBorder p="sm" data-testid="skill-file">
          <Text size="sm" fw={600} mb="xs">
            {cleanText(detail.file.path)} {detail.file.state === 'dynamic' ? '(unverified: dynamic skill)' : '(verified)'}
          </Text>
          {detail.file.text === undefined ? (
            <Text size="sm">Binary file, {sizeLabel(detail.file.size)}.</Text>
          ) : ownShown || detail.file.path.endsWith('.md') ? (
            <Lazy>
              <Markdown text={ownShown ? withoutFrontmatter(detail.file.text) : detail.file.text} />
            </Lazy>
          ) : (
            <CodeBlock maxHeight={400}>{detail.file.text}</CodeBlock>
          )}
        </Paper>
      )}
    </Stack>
  );
}

/** The Skills tab of a server's page. */
export function SkillsTab({ serverId }: { serverId: string }) {
  const list = useStore(selectSkillList(serverId));
  const load = useStore((s) => s.loadSkills);
  const [open, setOpen] = useState<string | undefined>();
  useEffect(() => {
    void load(serverId);
  }, [serverId, load]);
  const result = list?.result;
  const skill = result?.skills.find((s) => s.uri === open);
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          Skills this server publishes. Files are read only when you open a skill, and checked against the server's manifest.
        </Text>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconRefresh size={14} />}
          loading={list?.loading === true}
          onClick={() => void load(serverId)}
        >
          Refresh
        </Button>
      </Group>
      {list?.error && <Alert color="red">{cleanText(list.error)}</Alert>}
      {result?.partial && <Alert color="orange">{cleanText(result.partial)}</Alert>}
      {result?.resourcesOff && (
        <Alert
          color="gray"
          icon={<IconAlertTriangle size={16} />}
          title="Resources are turned off for this server"
          data-testid="skills-resources-off"
        >
          A skill's files are resources, so Switchboard reads none of them here: skills are listed but not verified, read or approved, and
          gateway clients get none of this server's skills. Turn resources on in the server's settings to check a skill.
        </Alert>
      )}
      {result && result.skills.length === 0 && <Text size="sm">This server lists no skills.</Text>}
      <Group align="flex-start" wrap="wrap" gap="md">
        <Stack gap={4} miw={220} style={{ flex: '0 1 260px' }} role="list" aria-label="Skills">
          {result?.skills.map((s) => (
            <UnstyledButton
              key={s.uri}
              role="listitem"
              onClick={() => setOpen(s.uri)}
              aria-current={open === s.uri ? 'true' : undefined}
              p="xs"
              style={{ borderRadius: 4, background: open === s.uri ? 'var(--mantine-color-default-hover)' : undefined }}
            >
              <Group gap="xs" wrap="nowrap" justify="space-between">
                <Text size="sm" fw={600} truncate>
                  {cleanText(s.label)}
                </Text>
                {s.approval !== 'none' && (
                  <Badge size="xs" variant="light" color={APPROVAL[s.approval].color}>
                    {s.approval === 'unbindable' ? 'dynamic' : APPROVAL[s.approval].label}
                  </Badge>
                )}
              </Group>
              <Text size="xs" c="dimmed" lineClamp={2}>
                {cleanText(s.description)}
              </Text>
            </UnstyledButton>
          ))}
          {result && result.skipped.length > 0 && (
            <Alert color="gray" title={`${result.skipped.length} skipped`} mt="xs">
              <Stack gap={2}>
                {result.skipped.map((s, i) => (
                  <Text size="xs" key={i}>
                    {cleanText(s.reason)}
                  </Text>
                ))}
              </Stack>
            </Alert>
          )}
        </Stack>
        <div style={{ flex: '1 1 420px', minWidth: 0 }}>
          {skill ? (
            <SkillDetail serverId={serverId} skill={skill} resourcesOff={result?.resourcesOff === true} />
          ) : (
            result && result.skills.length > 0 && <Text size="sm">Choose a skill to see it.</Text>
          )}
        </div>
      </Group>
    </Stack>
  );
}
