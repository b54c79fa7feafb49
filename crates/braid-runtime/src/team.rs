//! Team conversations: setting the team (each CLI member checked first,
//! so a missing or signed-out CLI is said now, not in the middle of a
//! chain), reading it back with its members' readiness and route, and the
//! user steering a chain. The core decides; this only asks.

use crate::{Runtime, RuntimeError};
use braid_core::machine::Event;
use braid_protocol::{AgentType, ContextId, ErrorCode, MemberCheck, Team, TeamAction, TeamView, WireError};

impl Runtime {
    /// Makes the conversation a team conversation (or not, with `None`).
    /// Refused, with what to do, while a member cannot answer.
    pub async fn set_team(&self, id: &ContextId, team: Option<Team>) -> Result<TeamView, RuntimeError> {
        let checks = match &team {
            Some(team) => self.check_members(team, &self.peek(id).await?.summary.working_dir).await,
            None => Vec::new(),
        };
        let problems: Vec<&str> = checks.iter().filter_map(|c| c.problem.as_deref()).collect();
        if !problems.is_empty() {
            let text = format!("The team was not set. {}", problems.join(". "));
            return Err(RuntimeError::Rejected(WireError::new(ErrorCode::InvalidInput, text)));
        }
        let warning = team.as_ref().and_then(|t| braid_core::team::cut_task(&t.task).1);
        self.command(id, Event::SetTeam { team: team.map(Box::new) }).await?;
        let snapshot = self.peek(id).await?;
        Ok(TeamView { team: snapshot.team, checks, route: snapshot.route.unwrap_or_default(), warning })
    }

    /// The team, whether each member can answer now, and the route.
    pub async fn team(&self, id: &ContextId) -> Result<TeamView, RuntimeError> {
        let snapshot = self.peek(id).await?;
        let checks = match &snapshot.team {
            Some(team) => self.check_members(team, &snapshot.summary.working_dir).await,
            None => Vec::new(),
        };
        Ok(TeamView { team: snapshot.team, checks, route: snapshot.route.unwrap_or_default(), warning: None })
    }

    pub async fn steer_team(&self, id: &ContextId, action: TeamAction) -> Result<(), RuntimeError> {
        self.command(id, Event::SteerTeam { action }).await.map(drop)
    }

    /// Every member at once: CLIs asked whether they are signed in, API
    /// members' providers looked up, in the conversation's `workspace`.
    async fn check_members(&self, team: &Team, workspace: &str) -> Vec<MemberCheck> {
        let workspace = std::path::Path::new(workspace);
        let checks = team.members.iter().map(|m| braid_tools::agents::check(m, workspace));
        let checks = futures::future::join_all(checks).await;
        checks
            .into_iter()
            .zip(&team.members)
            .map(|(check, member)| match &member.agent {
                AgentType::Api { model: Some(model) } if !self.providers().has(&model.provider_id) => MemberCheck {
                    ready: false,
                    problem: Some(format!(
                        "{}: there is no provider {:?} in the settings",
                        member.name, model.provider_id
                    )),
                    ..check
                },
                _ => check,
            })
            .collect()
    }
}
