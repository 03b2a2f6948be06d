import { Fieldset, Stack, TagsInput, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { Settings } from '../../api/types.ts';

/** The first error the server named for a list field or one of its entries (`name.<index>`). */
const listError = (errors: Record<string, unknown>, name: string) =>
  errors[name] ?? Object.entries(errors).find(([field]) => field.startsWith(`${name}.`))?.[1];

/** Who single sign-on lets in without an administrator's approval. */
export function SsoAdmissionFields({ form }: { form: UseFormReturnType<Settings> }) {
  return (
    <Fieldset legend="Single sign-on approval">
      <Text size="sm" c="dimmed" mb="xs">
        A new account made by single sign-on waits for an administrator’s approval unless its verified e-mail
        is in an allowed domain or it holds an allowed group.
      </Text>
      <Stack>
        <TagsInput
          label="Allowed e-mail domains"
          description="Press Enter after each domain, such as example.com"
          {...form.getInputProps('ssoAllowedDomains')}
          error={listError(form.errors, 'ssoAllowedDomains') as string | undefined}
        />
        <TagsInput
          label="Allowed groups"
          description="Press Enter after each group name"
          {...form.getInputProps('ssoAllowedGroups')}
          error={listError(form.errors, 'ssoAllowedGroups') as string | undefined}
        />
        <TextInput
          label="Groups claim"
          description="The claim of the identity provider that lists a user’s groups"
          {...form.getInputProps('ssoGroupsClaim')}
        />
      </Stack>
    </Fieldset>
  );
}
