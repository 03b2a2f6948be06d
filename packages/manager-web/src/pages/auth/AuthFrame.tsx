import { Anchor, Box, Center, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Banner } from '../../components/Banner.tsx';

export function AuthFrame({
  title,
  children,
  footer,
}: {
  title: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <Box mih="100vh">
      <Banner />
      <Center p="md" pt="xl">
        <Stack w="100%" maw={420} gap="md">
          <Text fw={700} ta="center" size="lg">
            Container Manager
          </Text>
          <Paper withBorder p="lg" radius="md" shadow="sm">
            <Title order={2} size="h3" mb="md">
              {title}
            </Title>
            {children}
          </Paper>
          {footer ? (
            <Text size="sm" ta="center" component="div">
              {footer}
            </Text>
          ) : null}
        </Stack>
      </Center>
    </Box>
  );
}

export { Anchor };
