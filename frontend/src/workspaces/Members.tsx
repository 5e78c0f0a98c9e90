import { useEffect, useState } from "preact/hooks";
import { client, errorMessage } from "../api";
import type { users, workspaces } from "../client.gen";
import { Alert } from "../components/Alert";
import { ConfirmButton } from "../components/ConfirmButton";
import { formatTime } from "../format";
import type { Workspace } from "./chosen";
import { manageableRoles, mayDo, roleNames, type Role } from "./roles";

interface MembersProps {
  workspace: Workspace;
  members: workspaces.Member[];
  me: string;
  /** After a change: what to announce; the page reloads the members. */
  onChanged: (message: string) => void;
}

/**
 * The members and their roles. Each row offers only what the caller's role may do to that
 * member (access/workspace-roles.ts): an owner manages admins, members and viewers, and may
 * hand over ownership; an admin manages members and viewers; the rest only read.
 */
export function Members({ workspace, members, me, onChanged }: MembersProps) {
  const grantable = manageableRoles(workspace.role);
  const people = usePeople(workspace.id, members);
  return (
    <section aria-labelledby="members-heading">
      <h2 id="members-heading">Members</h2>
      <ul class="rows" aria-labelledby="members-heading">
        {members.map((m) => (
          <MemberRow
            key={m.userId}
            member={m}
            isMe={m.userId === me}
            person={people.get(m.userId)}
            workspace={workspace}
            grantable={m.userId !== me && grantable.includes(m.role) ? grantable : []}
            onChanged={onChanged}
          />
        ))}
      </ul>
    </section>
  );
}

/**
 * Who the members are (name and email), read again whenever the list changes; until it
 * arrives, or for an account deleted since, a member shows by its id.
 */
function usePeople(workspaceId: string, members: readonly workspaces.Member[]): ReadonlyMap<string, users.Person> {
  const [people, setPeople] = useState<ReadonlyMap<string, users.Person>>(new Map());
  useEffect(() => {
    let live = true;
    client.users.workspacePeople(workspaceId).then(
      (res) => live && setPeople(new Map(res.people.map((p) => [p.userId, p]))),
      () => live && setPeople(new Map()),
    );
    return () => {
      live = false;
    };
  }, [workspaceId, members]);
  return people;
}

interface MemberRowProps {
  member: workspaces.Member;
  isMe: boolean;
  person: users.Person | undefined;
  workspace: Workspace;
  /** The roles the caller may give this member; none: the row only reads. */
  grantable: readonly Role[];
  onChanged: (message: string) => void;
}

function MemberRow({ member, isMe, person, workspace, grantable, onChanged }: MemberRowProps) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // In buttons and messages a member is named by email: unique, where names may repeat.
  const who = isMe ? "You" : (person?.email ?? member.userId);
  const changeRole = async (role: Role) => {
    setBusy(true);
    setError(null);
    try {
      await client.workspaces.changeRole(workspace.id, member.userId, { role });
      onChanged(`${who} is now ${roleNames[role].toLowerCase()}.`);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <li class="row member" data-user-id={member.userId}>
      <span class="row-title">
        {isMe ? (
          "You"
        ) : person ? (
          <>
            {person.name} <span class="member-email">{person.email}</span>
          </>
        ) : (
          <code class="user-id">{member.userId}</code>
        )}
      </span>
      {grantable.length > 0 ? (
        <span class="member-role">
          <label for={`role-${member.userId}`} class="visually-hidden">
            Role of {who}
          </label>
          <select id={`role-${member.userId}`} value={member.role} disabled={busy} onChange={(e) => void changeRole(e.currentTarget.value as Role)}>
            {grantable.map((role) => (
              <option key={role} value={role}>
                {roleNames[role]}
              </option>
            ))}
          </select>
        </span>
      ) : (
        <span class="member-role">{roleNames[member.role]}</span>
      )}
      <span class="meta">
        joined <time dateTime={member.joinedAt}>{formatTime(member.joinedAt)}</time>
      </span>
      {(grantable.length > 0 || (!isMe && mayDo(workspace.role, "own"))) && (
        <span class="actions">
          {grantable.length > 0 && (
            <ConfirmButton
              label="Remove"
              name={`Remove ${who}`}
              question={`Remove ${who} from “${workspace.name}”? They lose access to its links at once.`}
              confirmLabel="Remove"
              onConfirm={async () => {
                await client.workspaces.removeFromWorkspace(workspace.id, member.userId);
                onChanged(`Removed ${who}.`);
              }}
            />
          )}
          {!isMe && mayDo(workspace.role, "own") && (
            <ConfirmButton
              label="Make owner"
              name={`Make ${who} the owner`}
              question={`Make ${who} the owner of “${workspace.name}”? You become an admin, and only the new owner can give it back.`}
              confirmLabel="Make owner"
              onConfirm={async () => {
                await client.workspaces.transferWorkspace(workspace.id, { userId: member.userId });
                onChanged(`${who} is now the owner; you are an admin.`);
              }}
            />
          )}
        </span>
      )}
      {error && <Alert>{error}</Alert>}
    </li>
  );
}
