// Installing a registry entry (or a pasted server.json): pick how it runs, fill in its values (secrets masked), see
// the exact launch, then add it. Nothing runs here: a stdio server's launch is approved on its page afterwards.
import { Alert, Badge, Button, Group, Radio, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconX } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { InstallInput, InstallValues, PreparedInstall, PrepareTarget } from '../../../../shared/domains/registry';
import { escapeUnsafe } from '../../../../shared/domains/catalog-text';
import { AppError } from '../../../../shared/errors';
import { routes } from '../../router/route';
import { useStore } from '../../store';
import { AppDialog } from '../../ui/AppDialog';
import { useAction } from '../../ui/use-action';
import { filledValues, InputFields } from './InputField';
import { WhatWillRun } from './LaunchPreview';
import { Preparing } from './Preparing';
import { PostInstallChecklist } from './PostInstallChecklist';
import { StatusBadge } from './StatusBadge';

/** Values that may be sent to prepare (secrets stay in the dialog until the install itself). */
function plainValues(values: InstallValues, inputs: InstallInput[]): InstallValues {
  const secret = new Set(inputs.filter((i) => i.secret).map((i) => i.key));
  return Object.fromEntries(Object.entries(values).filter(([k, v]) => !secret.has(k) && v !== ''));
}

/** The install dialog for one entry. */
export function InstallDialog({ target, title }: { target: PrepareTarget; title: string }) {
  const closeDialog = useStore((s) => s.closeDialog);
  const prepareInstall = useStore((s) => s.prepareInstall);
  const installFromRegistry = useStore((s) => s.installFromRegistry);
  const navigate = useStore((s) => s.navigate);
  const [prepared, setPrepared] = useState<PreparedInstall | null>(null);
  const [choice, setChoice] = useState<number | undefined>(undefined);
  const [values, setValues] = useState<InstallValues>({});
  const [id, setId] = useState('');
  const [displayName, setDisplayName] = useState('');
  // Set once installed when the package lists steps for afterwards: the dialog turns into their checklist.
  const [installedId, setInstalledId] = useState<string | null>(null);
  const { busy, error, setError, run } = useAction();
  const seq = useRef(0);
  const inputs = useMemo(() => prepared?.inputs ?? [], [prepared]);
  const plain = useMemo(() => JSON.stringify(plainValues(values, inputs)), [values, inputs]);

  // Prepare again (debounced) when the option or a non-secret value changes: the preview shows the exact launch.
  useEffect(() => {
    const mine = ++seq.current;
    const timer = setTimeout(
      () => {
        prepareInstall(target, choice, JSON.parse(plain) as InstallValues)
          .then((next) => {
            if (mine !== seq.current) return;
            setPrepared(next);
            setError(null);
            setId((cur) => (cur === '' ? next.config.id : cur));
            setDisplayName((cur) => (cur === '' ? next.config.name : cur));
          })
          .catch((err: unknown) => {
            if (mine === seq.current) setError(err instanceof AppError ? err.message : 'The entry could not be prepared');
          });
      },
      prepared === null ? 0 : 300,
    );
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `prepared` only decides the first delay
  }, [target, choice, plain, prepareInstall]);

  const deprecated = prepared?.entry.status === 'deprecated';
  // The core puts the deprecation first among the warnings; the alert above says it already.
  const cautions = deprecated ? (prepared?.warnings ?? []).slice(1) : (prepared?.warnings ?? []);
  const secretKeys = new Set(inputs.filter((i) => i.secret).map((i) => i.key));
  const missing = (prepared?.missing ?? []).filter((k) => !(secretKeys.has(k) && (values[k] ?? '') !== ''));
  const install = async () => {
    if (!prepared) return;
    let installed = '';
    const ok = await run(async () => {
      const detail = await installFromRegistry(target, {
        choice: prepared.choice,
        values: filledValues(values),
        ...(id.trim() !== '' ? { id: id.trim() } : {}),
        ...(displayName.trim() !== '' ? { displayName: displayName.trim() } : {}),
      });
      installed = detail.id;
    }, 'The server could not be installed');
    if (!ok) return;
    if (prepared.postInstall.length > 0) {
      setInstalledId(installed);
      return;
    }
    closeDialog();
    navigate(routes.servers(installed));
  };

  if (installedId !== null && prepared !== null) {
    const finish = () => {
      closeDialog();
      navigate(routes.servers(installedId));
    };
    return (
      <AppDialog
        opened
        onClose={finish}
        title={`Installed ${title}: steps left`}
        size="xl"
        actions={
          <Button variant="filled" onClick={finish}>
            Done
          </Button>
        }
      >
        <PostInstallChecklist steps={prepared.postInstall} />
      </AppDialog>
    );
  }

  return (
    <AppDialog
      opened
      onClose={closeDialog}
      title={`Install ${title}`}
      size="xl"
      actions={
        <>
          <Button onClick={closeDialog}>Cancel</Button>
          <Button variant="filled" onClick={() => void install()} loading={busy} disabled={prepared === null || missing.length > 0}>
            {deprecated ? 'Install anyway' : 'Install'}
          </Button>
        </>
      }
    >
      {prepared === null ? (
        <Preparing error={error} busyText="Reading the entry…" errorTitle="This entry cannot be installed" />
      ) : (
        <Stack gap="md">
          <Stack gap={4}>
            <Group gap="xs">
              <Title order={3} fz="lg">
                {escapeUnsafe(prepared.entry.title ?? prepared.entry.name)}
              </Title>
              <Badge variant="default" tt="none">
                v{escapeUnsafe(prepared.entry.version)}
              </Badge>
              <StatusBadge
                status={prepared.entry.status}
                {...(prepared.entry.statusChangedAt !== undefined ? { changedAt: prepared.entry.statusChangedAt } : {})}
              />
            </Group>
            <Text fz="sm" c="dimmed" ff="monospace">
              {escapeUnsafe(prepared.entry.name)}
            </Text>
            {prepared.entry.description && <Text fz="sm">{escapeUnsafe(prepared.entry.description)}</Text>}
            {deprecated && (
              <Alert
                color="yellow"
                icon={<IconAlertTriangle size={18} aria-hidden />}
                title="This entry is deprecated"
                role="alert"
                data-deprecated-warning
              >
                <Text fz="sm">
                  {prepared.entry.statusMessage
                    ? escapeUnsafe(prepared.entry.statusMessage)
                    : 'Its registry marks it deprecated and gives no reason.'}
                </Text>
                <Text fz="sm">You can still install it, but it may stop working or receive no fixes.</Text>
              </Alert>
            )}
            {prepared.entry.installed?.map((i) => (
              <Text key={i.id} fz="sm" c="dimmed">
                Already installed as “{i.id}” (version {escapeUnsafe(i.version)}).
              </Text>
            ))}
          </Stack>

          {prepared.entry.options.length > 1 && (
            <Radio.Group label="How it runs" value={String(prepared.choice)} onChange={(v) => setChoice(Number(v))}>
              <Stack gap={6} mt={6}>
                {prepared.entry.options.map((o) => (
                  <Radio
                    key={o.index}
                    value={String(o.index)}
                    disabled={!o.installable}
                    label={
                      <Group gap={6} wrap="nowrap">
                        {o.runnable ? (
                          <IconCheck size={16} color="var(--mantine-color-green-7)" aria-label="Can run here" />
                        ) : (
                          <IconX size={16} color="var(--mantine-color-red-7)" aria-label="Cannot run here" />
                        )}
                        <Text fz="sm">{escapeUnsafe(o.label)}</Text>
                      </Group>
                    }
                    description={o.reason !== undefined ? escapeUnsafe(o.reason) : undefined}
                  />
                ))}
              </Stack>
            </Radio.Group>
          )}

          <Group grow align="flex-start">
            <TextInput
              label="Name"
              description="Shown in Switchboard"
              value={displayName}
              onChange={(e) => setDisplayName(e.currentTarget.value)}
            />
            <TextInput
              label="Id"
              description="Used in tool names: lowercase letters, digits, - and _"
              value={id}
              onChange={(e) => setId(e.currentTarget.value)}
              spellCheck={false}
            />
          </Group>

          <InputFields
            inputs={inputs}
            values={values}
            onChange={setValues}
            label="Values to fill in"
            title="Values"
            errorFor={(key) => (missing.includes(key) && (values[key] ?? '') !== '' ? 'This value is not accepted' : undefined)}
          />

          {cautions.length > 0 && (
            <Alert color="yellow" icon={<IconAlertTriangle size={18} aria-hidden />} title="Check before installing">
              <Stack gap={4}>
                {cautions.map((w, i) => (
                  <Text key={i} fz="sm">
                    {escapeUnsafe(w)}
                  </Text>
                ))}
              </Stack>
            </Alert>
          )}

          <WhatWillRun
            config={prepared.config}
            next={
              prepared.config.transport.type === 'stdio'
                ? 'Nothing runs yet: after installing, you approve this exact command on the server’s page before it starts.'
                : 'After installing, Switchboard connects to this address.'
            }
          />
          {missing.length > 0 && (
            <Text fz="sm" c="red" role="status">
              Still to fill in: {missing.map((k) => escapeUnsafe(inputs.find((i) => i.key === k)?.label ?? k)).join(', ')}
            </Text>
          )}
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
        </Stack>
      )}
    </AppDialog>
  );
}
