import type { CompactionMarkerView } from "../../api/usage-queries";
import { SafeMarkdown } from "../../components/safe-markdown";
import type { Part } from "../../contract/transcript";
import { CarriedReplay } from "./carried-replay";
import { CompactionRow } from "./compaction-row";
import { describeEvent } from "./event-line";
import { FilePart } from "./file-part";
import { FoldedReply } from "./folded-reply";
import { NoticeLine } from "./notice-line";
import { PermissionPart } from "./permission-part";
import { ReasoningPart } from "./reasoning-part";
import { EVENT_LINE } from "./row-looks";
import { ToolPart } from "./tool-part";
import { UnsupportedLine } from "./unsupported-line";

/** One part of a message, by type; anything unknown is the unsupported line. */
export function PartView({
  part,
  itemKey,
  markerFor,
  foldLong = false,
}: {
  part: Part;
  itemKey: string;
  markerFor: (compactionId: string) => CompactionMarkerView | undefined;
  /** An agent's finished reply folds when long; a streaming one shows as it arrives. */
  foldLong?: boolean;
}) {
  switch (part.type) {
    case "text":
      return foldLong && part.state !== "streaming" ? (
        <FoldedReply itemKey={itemKey} text={part.text} />
      ) : (
        <SafeMarkdown text={part.text} />
      );
    case "reasoning":
      return <ReasoningPart itemKey={itemKey} text={part.text} />;
    case "data-compozy-compaction":
      return <CompactionRow item={part.data} marker={markerFor(part.data.compaction_id)} />;
    case "data-compozy-event": {
      if (part.data.type === "notice") return <NoticeLine data={part.data} />;
      if (part.data.type === "session.replay_carried") {
        return <CarriedReplay itemKey={itemKey} data={part.data} />;
      }
      const line = describeEvent(part.data);
      return line ? <p className={EVENT_LINE}>{line}</p> : null;
    }
    case "data-compozy-permission":
      return <PermissionPart data={part.data} />;
    case "file":
      return <FilePart part={part} />;
    case "unsupported":
      return <UnsupportedLine itemKey={itemKey} part={part} />;
    default:
      return <ToolPart itemKey={itemKey} part={part} />;
  }
}
