import { Image, Text, UnstyledButton } from '@mantine/core';
import { Modal } from '@app/web-kit';
import { useEffect, useState } from 'react';
import { authHeaders } from '../api.ts';

/**
 * The screenshot of where a phrase appears (its element outlined in red): a thumbnail beside the phrase
 * that opens the whole image in a dialog. The image is fetched with the caller's credentials (the key or
 * the session's project), so it cannot be a plain `<img src>`; it is shown as a data: URL, which the
 * dashboard's Content-Security-Policy allows for images (blob: it does not).
 */
export function PhraseScreenshot({ phraseId, phrase }: { phraseId: number; phrase: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    let cancelled = false;
    fetch(`/api/phrases/${phraseId}/screenshot`, { headers: authHeaders('GET') })
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status));
        const data = await dataUrl(await response.blob());
        if (!cancelled) setUrl(data);
      })
      .catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
    };
  }, [phraseId]);

  if (failed) return null;
  const label = `Screenshot of the page where "${phrase}" appears`;
  return (
    <>
      <UnstyledButton
        onClick={() => setOpen(true)}
        aria-label={`Show where "${phrase}" appears`}
        disabled={!url}
        style={{ lineHeight: 0, alignSelf: 'flex-start' }}
      >
        {url ? (
          <Image
            src={url}
            alt=""
            w={96}
            h={48}
            fit="cover"
            radius="xs"
            style={{ border: '1px solid var(--mantine-color-default-border)' }}
          />
        ) : (
          <Text size="xs" c="dimmed" component="span" style={{ lineHeight: 1.4 }}>
            Screenshot…
          </Text>
        )}
      </UnstyledButton>
      <Modal opened={open} onClose={() => setOpen(false)} title="Where it appears" size="auto">
        {url && <Image src={url} alt={`${label}, outlined in red`} maw="100%" />}
      </Modal>
    </>
  );
}

function dataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable image'));
    reader.readAsDataURL(blob);
  });
}
