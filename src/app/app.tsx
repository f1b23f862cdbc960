import { QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { Route, Switch } from "wouter";
import { applyTheme, usePreferences } from "../lib/preferences";
import { AppLayout } from "./app-layout";
import { ErrorBoundary } from "./error-boundary";
import { HomePage } from "./home-page";
import { createQueryClient } from "./query-client";
import { SessionPage } from "./session-page";

// The remembered theme before the first render, so a forced one never flashes the other.
applyTheme(usePreferences.getState().theme);

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <Switch>
          <Route path="/w/:ws/s/:id">
            {(params) => (
              <AppLayout activeSessionId={params.id}>
                <SessionPage
                  key={params.id}
                  session={{ workspaceId: params.ws, sessionId: params.id }}
                />
              </AppLayout>
            )}
          </Route>
          <Route>
            <AppLayout>
              <HomePage />
            </AppLayout>
          </Route>
        </Switch>
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
