#pragma once

#include <string>
#include <vector>

#include "session/session_edits.h"

namespace usmpx {

// Undo and redo over whole snapshots of the session edits: each step remembers the state before
// and after, so undoing never depends on replaying anything.
class EditHistory {
 public:
  explicit EditHistory(SessionEdits initial = {});

  const SessionEdits& current() const { return current_; }
  // Records a new state; drops any redo steps. Does nothing when `next` equals the current state.
  void push(const std::string& description, SessionEdits next);
  bool can_undo() const { return position_ > 0; }
  bool can_redo() const { return position_ < steps_.size(); }
  std::string undo_text() const;
  std::string redo_text() const;
  void undo();
  void redo();
  // Whether the current state is the one last saved (mark_saved) or loaded.
  bool is_clean() const { return position_ == saved_position_; }
  void mark_saved() { saved_position_ = position_; }
  // Starts over from a state (new input or opened session).
  void reset(SessionEdits initial);

 private:
  struct Step {
    std::string description;
    SessionEdits before;
    SessionEdits after;
  };
  SessionEdits current_;
  std::vector<Step> steps_;
  size_t position_ = 0;  // steps_[0..position_) are applied
  size_t saved_position_ = 0;
};

}  // namespace usmpx
