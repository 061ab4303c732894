// Spell's page: it only shows the game, kept live by the channel every page shares.
import { start } from "./pick.js";

start(() => {});
