// Starts the real App shell with every real view in jsdom, against the test backend, and
// stops that backend when the test finishes.
import { onTestFinished } from "vitest";
import { App, type ViewName } from "../app";
import { coreView } from "../views/core";
import { firstRunView } from "../views/first-run";
import { historyView } from "../views/history";
import { latestView } from "../views/latest";
import { reviewView } from "../views/review";
import { searchView } from "../views/search";
import { settingsView } from "../views/settings";
import { setupStepView } from "../views/setup-step";
import { storesView } from "../views/stores";
import { Backend, NOW, settle } from "./backend";

export async function startApp(setup: (b: Backend) => void = () => {}, view?: ViewName): Promise<{ app: App; backend: Backend; root: HTMLElement }> {
  const backend = new Backend();
  onTestFinished(() => backend.stop());
  setup(backend);
  document.body.replaceChildren();
  localStorage.clear();
  const root = document.createElement("div");
  document.body.append(root);
  const app = new App(
    root,
    { latest: latestView, search: searchView, review: reviewView, core: coreView, history: historyView, stores: storesView, settings: settingsView, setup: setupStepView },
    firstRunView,
    () => NOW,
  );
  await app.start();
  await settle();
  if (view) {
    await app.show(view);
    await settle();
  }
  return { app, backend, root };
}
