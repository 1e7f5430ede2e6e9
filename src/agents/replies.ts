import type { Goal } from "./goals.js";
import { productionWordsList } from "./productionWords.js";

const doing: Record<string, string> = {
  woodcutting: "chopping trees",
  mining: "mining",
  fishing: "fishing",
  ...Object.fromEntries(productionWordsList().map(([kind, w]) => [kind, w.doing])),
  combat: "fighting",
  bank: "on my way to the bank",
  pickup: "picking things up",
  buy: "off to buy something",
  sell: "off to sell what I gathered",
  quest: "on a quest",
  idle: "taking it easy",
};

/** What an agent says in world chat to words it does not take as a command. */
export function replyTo(content: string, name: string, goal: Goal | null): string {
  const t = content.toLowerCase();
  const now = goal ? (doing[goal.type] ?? "busy") : "looking for something to do";
  if (/\b(hi|hello|hey|greetings|well met)\b/.test(t)) return `Well met! ${name} here, ${now}.`;
  if (/\b(how are you|status|what are you doing|wyd)\b/.test(t)) return `I'm ${now}.`;
  if (/\b(thanks|thank you|cheers)\b/.test(t)) return "Any time.";
  return `Hmm, I don't follow. I can chop trees, mine, fish, smelt, smith, craft, fletch, craft runes, tan hides, attack something, pick up, go to the bank, buy a tool, sell what I gathered, do a quest, stop or idle. Right now I'm ${now}.`;
}
