import { Component, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { PageCrashed } from './PageCrashed.tsx';

interface Props {
  location: string;
  children: ReactNode;
}

// React reports the caught error (with its stack) to the console; the page only says what to do.
class Boundary extends Component<Props, { crashed: boolean; location: string }> {
  override state = { crashed: false, location: this.props.location };

  static getDerivedStateFromError() {
    return { crashed: true };
  }

  static getDerivedStateFromProps(props: Props, state: { location: string }) {
    return props.location === state.location ? null : { crashed: false, location: props.location };
  }

  override render() {
    return this.state.crashed ? <PageCrashed /> : this.props.children;
  }
}

/** Shows PageCrashed instead of a page that threw while rendering, until the next navigation. */
export function CrashBoundary({ children }: { children: ReactNode }) {
  return <Boundary location={useLocation().key}>{children}</Boundary>;
}
