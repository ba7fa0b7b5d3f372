#include "session/edit_history.h"

namespace usmpx {

EditHistory::EditHistory(SessionEdits initial) : current_(std::move(initial)) {}

void EditHistory::push(const std::string& description, SessionEdits next) {
  if (next == current_) return;
  steps_.resize(position_);
  // A saved state that was undone past can no longer be reached by undo or redo.
  if (saved_position_ > position_) saved_position_ = static_cast<size_t>(-1);
  steps_.push_back({description, current_, next});
  current_ = std::move(next);
  ++position_;
}

std::string EditHistory::undo_text() const {
  return can_undo() ? steps_[position_ - 1].description : std::string();
}

std::string EditHistory::redo_text() const {
  return can_redo() ? steps_[position_].description : std::string();
}

void EditHistory::undo() {
  if (!can_undo()) return;
  --position_;
  current_ = steps_[position_].before;
}

void EditHistory::redo() {
  if (!can_redo()) return;
  current_ = steps_[position_].after;
  ++position_;
}

void EditHistory::reset(SessionEdits initial) {
  current_ = std::move(initial);
  steps_.clear();
  position_ = 0;
  saved_position_ = 0;
}

}  // namespace usmpx
