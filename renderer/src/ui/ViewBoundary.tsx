// Keeps one broken view from blanking the whole app: the view is replaced by what went wrong and a way back.
import { Alert, Button, Stack, Text } from '@mantine/core';
import { Component, type ReactNode } from 'react';

interface State {
  error: string | null;
}

/** Catches render errors of its children; `resetKey` changes (a new location) clear the error. */
export class ViewBoundary extends Component<{ resetKey: string; children: ReactNode }, State> {
  override state: State = { error: null };
  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error.message : 'unknown error' };
  }
  override componentDidUpdate(prev: { resetKey: string }): void {
    if (prev.resetKey !== this.props.resetKey && this.state.error !== null) this.setState({ error: null });
  }
  override render(): ReactNode {
    if (this.state.error === null) return this.props.children;
    return (
      <Alert color="red" variant="light" title="This view could not be shown" role="alert">
        <Stack gap="xs">
          <Text size="sm">{this.state.error.slice(0, 500)}</Text>
          <div>
            <Button size="xs" onClick={() => this.setState({ error: null })}>
              Try again
            </Button>
          </div>
        </Stack>
      </Alert>
    );
  }
}
