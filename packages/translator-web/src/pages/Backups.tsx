import { ConfirmButton, LocalDataTable, type Column } from '@app/web-kit';
import { Button, FileButton, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, download, uploadBackup, type Backup } from '../api.ts';
import {
  deleteAndRefresh,
  formatBytes,
  formatDate,
  notifyError,
  notifyOk,
  PageTitle,
  QueryView,
} from '../components/common.tsx';
import { useLanguages } from '../data/project.ts';
import { backupKeys, useBackups } from '../data/backups.ts';
import { TranslationFiles } from '../components/TranslationFiles.tsx';
import { RestoreBackup } from '../components/RestoreBackup.tsx';
import { useAuth } from '../auth.tsx';

/** A stored backup's URL: GET downloads it, DELETE removes it. */
const fileUrl = (filename: string) => `/api/backups/${encodeURIComponent(filename)}`;

export function Backups() {
  const queryClient = useQueryClient();
  const own = useAuth().can('own');
  const languages = useLanguages();
  const backups = useBackups();
  const [downloading, setDownloading] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () => api.post('/backups'),
    onSuccess: async (backup) => {
      notifyOk(`Backup ${backup.filename} created`);
      await queryClient.invalidateQueries({ queryKey: backupKeys.all });
    },
    onError: (error) => notifyError(error),
  });
  const upload = useMutation({
    mutationFn: (file: File) => uploadBackup(file),
    onSuccess: async (backup) => {
      notifyOk(`Uploaded as ${backup.filename}: restore it from the list`);
      await queryClient.invalidateQueries({ queryKey: backupKeys.all });
    },
    onError: (error) => notifyError(error, 'Upload refused'),
  });
  const get = async (path: string, name: string) => {
    setDownloading(path);
    try {
      await download(path, name);
    } catch (error) {
      notifyError(error, 'Download failed');
    } finally {
      setDownloading(null);
    }
  };
  const columns: Array<Column<Backup>> = [
    {
      key: 'file',
      header: 'File',
      phone: 'title',
      sortValue: (b) => b.filename,
      cell: (b) => (
        <Text size="sm" style={{ wordBreak: 'break-all' }}>
          {b.filename}
        </Text>
      ),
    },
    { key: 'created', header: 'Created', sortValue: (b) => b.created, cell: (b) => formatDate(b.created) },
    { key: 'size', header: 'Size', align: 'end', sortValue: (b) => b.size, cell: (b) => formatBytes(b.size) },
    {
      key: 'actions',
      header: 'Actions',
      cell: (b) => (
        <Group gap="xs" wrap="nowrap">
          <Button
            size="xs"
            variant="default"
            aria-label={`Download ${b.filename}`}
            loading={downloading === fileUrl(b.filename)}
            onClick={() => get(fileUrl(b.filename), b.filename)}
          >
            Download
          </Button>
          {own && (
            <>
              <RestoreBackup filename={b.filename} />
              <ConfirmButton
                size="xs"
                ariaLabel={`Delete ${b.filename}`}
                title="Delete backup?"
                message={`${b.filename} is deleted from the server.`}
                confirmLabel="Delete"
                onConfirm={() =>
                  deleteAndRefresh(
                    () => api.delete('/backups/{filename}', { path: { filename: b.filename } }),
                    'Backup deleted',
                    () => queryClient.invalidateQueries({ queryKey: backupKeys.all }),
                  )
                }
              >
                Delete
              </ConfirmButton>
            </>
          )}
        </Group>
      ),
    },
  ];
  return (
    <>
      <PageTitle>Backups & export</PageTitle>
      <Stack gap="lg">
        <Paper withBorder p="md">
          <Title order={3} size="h4" mb={4}>
            Export translations
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            Approved translations as JSON, for all languages or one.
          </Text>
          <Group gap="xs">
            <Button
              variant="light"
              loading={downloading === '/api/export'}
              onClick={() => get('/api/export', 'translations.json')}
            >
              All languages
            </Button>
            {(languages.data ?? []).map((l) => (
              <Button
                key={l.code}
                variant="default"
                loading={downloading === `/api/export/${l.code}`}
                onClick={() =>
                  get(`/api/export/${encodeURIComponent(l.code)}`, `translations-${l.code}.json`)
                }
              >
                {l.name} ({l.code})
              </Button>
            ))}
          </Group>
        </Paper>
        <TranslationFiles />
        <Paper withBorder p="md">
          <Group justify="space-between" mb="sm" wrap="wrap">
            <div>
              <Title order={3} size="h4">
                Database backups
              </Title>
              <Text size="sm" c="dimmed">
                Each file holds this project’s data as SQLite. Stored backups are kept on the server; download
                one to keep a copy elsewhere, upload it to bring it back, and restore one after a preview of
                what it changes.
              </Text>
            </div>
            <Group gap="xs">
              <Button
                variant="default"
                loading={downloading === '/api/backup'}
                onClick={() => get('/api/backup', 'translator-backup.sqlite')}
              >
                Download current data
              </Button>
              {own && (
                <FileButton
                  onChange={(file) => file && upload.mutate(file)}
                  accept=".sqlite,application/vnd.sqlite3"
                >
                  {(props) => (
                    <Button {...props} variant="default" loading={upload.isPending}>
                      Upload a backup
                    </Button>
                  )}
                </FileButton>
              )}
              <Button loading={create.isPending} onClick={() => create.mutate()}>
                Create backup
              </Button>
            </Group>
          </Group>
          <QueryView query={backups} label="Loading backups…">
            {(list) =>
              list.length === 0 ? (
                <Text size="sm" c="dimmed">
                  No backups yet.
                </Text>
              ) : (
                <LocalDataTable
                  data-testid="backup-table"
                  sort={{ key: 'created', direction: 'descending' }}
                  rows={list}
                  rowKey={(b) => b.filename}
                  columns={columns}
                />
              )
            }
          </QueryView>
        </Paper>
      </Stack>
    </>
  );
}
