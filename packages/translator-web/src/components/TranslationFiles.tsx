import {
  Alert,
  Button,
  FileInput,
  Group,
  List,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, download, importFile, type FileFormat, type ImportReport } from '../api.ts';
import { useLanguages } from '../data/project.ts';
import { rowKeys } from '../data/phrases.ts';
import { analyticsKeys } from '../data/analytics.ts';
import { notifyError, notifyOk } from './common.tsx';

const FORMATS: { value: FileFormat; label: string }[] = [
  { value: 'xliff20', label: 'XLIFF 2.0' },
  { value: 'xliff12', label: 'XLIFF 1.2' },
  { value: 'po', label: 'gettext PO' },
  { value: 'csv', label: 'CSV (spreadsheets)' },
  { value: 'json', label: 'JSON, flat' },
  { value: 'json-nested', label: 'JSON, nested by context' },
];

/** The format a picked file is in, from its name (and, for XLIFF, the version it declares). */
async function formatOf(file: File, current: FileFormat): Promise<FileFormat> {
  const extension = file.name.toLowerCase().split('.').pop();
  if (extension === 'po' || extension === 'pot') return 'po';
  if (extension === 'csv') return 'csv';
  if (extension === 'json') return current === 'json-nested' ? current : 'json';
  if (extension === 'xlf' || extension === 'xliff') {
    const head = await file.slice(0, 2000).text();
    return /<xliff[^>]*version="2\./.test(head) ? 'xliff20' : 'xliff12';
  }
  return current;
}

/** Files for translators: download one language in a CAT tool's format, import it back with a preview. */
export function TranslationFiles() {
  const queryClient = useQueryClient();
  const languages = useLanguages();
  const [lang, setLang] = useState<string | null>(null);
  const [format, setFormat] = useState<FileFormat>('xliff20');
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ImportReport | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [downloading, setDownloading] = useState(false);
  const chosen = lang ?? languages.data?.[0]?.code ?? null;

  const reset = () => {
    setPreview(null);
    setProblems([]);
  };
  const send = useMutation({
    mutationFn: ({ dryRun }: { dryRun: boolean }) => importFile(chosen!, format, file!, dryRun),
    onSuccess: async (report) => {
      setProblems([]);
      if (report.dryRun) return setPreview(report);
      setPreview(null);
      setFile(null);
      notifyOk(`${report.changed} translation${report.changed === 1 ? '' : 's'} imported`);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: rowKeys.all }),
        queryClient.invalidateQueries({ queryKey: analyticsKeys.all }),
      ]);
    },
    onError: (error) => {
      setPreview(null);
      const fields = error instanceof ApiError ? Object.values(error.fields ?? {}) : [];
      setProblems(fields);
      notifyError(error, 'The file was not imported');
    },
  });
  const get = async () => {
    setDownloading(true);
    try {
      await download(`/api/files/${encodeURIComponent(chosen!)}?format=${format}`, `translations-${chosen}`);
    } catch (error) {
      notifyError(error, 'Download failed');
    } finally {
      setDownloading(false);
    }
  };
  const languageOptions = (languages.data ?? []).map((l) => ({
    value: l.code,
    label: `${l.name} (${l.code})`,
  }));

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="translation-files-title">
      <Title order={3} size="h4" mb={4} id="translation-files-title">
        Files for translators
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Every phrase with its translation into one language, for CAT tools (XLIFF, PO), spreadsheets (CSV) or
        code (JSON). Slots travel as placeholders. An import changes only the translations the file changes,
        shows what it will do first, and refuses a file that would break a slot.
      </Text>
      <Stack gap="sm">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <Select
            label="Language"
            data={languageOptions}
            value={chosen}
            onChange={(value) => {
              setLang(value);
              reset();
            }}
            allowDeselect={false}
            placeholder="Add a language in Settings first"
            w={200}
          />
          <Select
            label="Format"
            data={FORMATS}
            value={format}
            onChange={(value) => {
              setFormat((value as FileFormat | null) ?? 'xliff20');
              reset();
            }}
            allowDeselect={false}
            w={220}
          />
          <Button variant="default" disabled={!chosen} loading={downloading} onClick={get}>
            Download file
          </Button>
        </Group>
        <Group gap="sm" align="flex-end" wrap="wrap">
          <FileInput
            label="File to import"
            placeholder="Pick a file"
            accept=".xlf,.xliff,.po,.csv,.json"
            value={file}
            onChange={async (picked) => {
              reset();
              setFile(picked);
              if (picked) setFormat(await formatOf(picked, format));
            }}
            clearable
            w={260}
          />
          <Button
            disabled={!file || !chosen}
            loading={send.isPending && send.variables?.dryRun}
            onClick={() => send.mutate({ dryRun: true })}
          >
            Preview import
          </Button>
        </Group>
        {problems.length > 0 && (
          <Alert color="red" title="Nothing was imported: these translations lose or add slots">
            <List size="sm">
              {problems.slice(0, 20).map((problem) => (
                <List.Item key={problem}>{problem}</List.Item>
              ))}
            </List>
          </Alert>
        )}
        {preview && (
          <ImportPreview
            report={preview}
            importing={send.isPending && !send.variables?.dryRun}
            onImport={() => send.mutate({ dryRun: false })}
            onCancel={reset}
          />
        )}
      </Stack>
    </Paper>
  );
}

function ImportPreview({
  report,
  importing,
  onImport,
  onCancel,
}: {
  report: ImportReport;
  importing: boolean;
  onImport: () => void;
  onCancel: () => void;
}) {
  return (
    <Stack gap="xs" aria-label="Import preview" role="region">
      <Text size="sm">
        {report.units} units in the file: <strong>{report.changed} to import</strong> ({report.created} new,{' '}
        {report.updated} changed), {report.unchanged} unchanged, {report.skipped} empty or unfinished,{' '}
        {report.unknown} not in this project.
      </Text>
      {report.changes.length > 0 && (
        <Table.ScrollContainer minWidth={500}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Source</Table.Th>
                <Table.Th>Now</Table.Th>
                <Table.Th>After the import</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {report.changes.map((change) => (
                <Table.Tr key={change.phraseId}>
                  <Table.Td>{change.key}</Table.Td>
                  <Table.Td c={change.old === null ? 'dimmed' : undefined}>{change.old ?? 'none'}</Table.Td>
                  <Table.Td>{change.new}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {report.changed > report.changes.length && (
        <Text size="sm" c="dimmed">
          And {report.changed - report.changes.length} more.
        </Text>
      )}
      {report.unknownUnits.length > 0 && (
        <Text size="sm" c="dimmed">
          Not in this project (left out): {report.unknownUnits.map((unit) => `“${unit.key}”`).join(', ')}
        </Text>
      )}
      <Group gap="xs">
        <Button disabled={report.changed === 0} loading={importing} onClick={onImport}>
          Import {report.changed} translation{report.changed === 1 ? '' : 's'}
        </Button>
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
      </Group>
    </Stack>
  );
}
