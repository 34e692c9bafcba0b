// Entry point: the shell with its views.
import { App } from "./app";
import { coreView } from "./views/core";
import { firstRunView } from "./views/first-run";
import { historyView } from "./views/history";
import { latestView } from "./views/latest";
import { reviewView } from "./views/review";
import { searchView } from "./views/search";
import { settingsView } from "./views/settings";
import { setupStepView } from "./views/setup-step";
import { storesView } from "./views/stores";

const root = document.getElementById("app");
if (root) {
  const app = new App(
    root,
    { latest: latestView, search: searchView, review: reviewView, core: coreView, history: historyView, stores: storesView, settings: settingsView, setup: setupStepView },
    firstRunView,
  );
  void app.start();
}
