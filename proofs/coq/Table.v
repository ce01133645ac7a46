(** * The full table of the reference (reference/table.py, proofs/02 and 03) *)

From Coq Require Import List Arith ZArith Lia.
From Knapsack Require Import Spec Split.
Import ListNotations.

(** [next_row]: row [i] from row [i - 1] for the item [(w, v)]:
    [row[c] = previous[c]] for [c < w], else [max(previous[c], v + previous[c - w])]. *)
Definition next_row (prev : list Z) (w : nat) (v : Z) : list Z :=
  map (fun c => if c <? w then nth c prev 0%Z
                else Z.max (nth c prev 0%Z) (v + nth (c - w) prev 0%Z)%Z)
      (seq 0 (length prev)).

(** The last row of [build_table items columns]: items taken in index order. *)
Definition last_row (items : list item) (columns : nat) : list Z :=
  fold_left (fun row x => next_row row (fst x) (snd x)) items (repeat 0%Z columns).

Lemma next_row_length : forall prev w v, length (next_row prev w v) = length prev.
Proof. intros. unfold next_row. rewrite map_length, seq_length. reflexivity. Qed.

Lemma nth_map_seq : forall (f : nat -> Z) n c d, c < n -> nth c (map f (seq 0 n)) d = f c.
Proof.
  intros f n c d H. rewrite nth_indep with (d' := f 0) by (rewrite map_length, seq_length; lia).
  rewrite map_nth, seq_nth by lia. reflexivity.
Qed.

Lemma next_row_nth : forall prev w v c, c < length prev ->
  nth c (next_row prev w v) 0%Z =
  if c <? w then nth c prev 0%Z else Z.max (nth c prev 0%Z) (v + nth (c - w) prev 0%Z)%Z.
Proof.
  intros prev w v c H. unfold next_row. rewrite nth_map_seq by exact H. reflexivity.
Qed.

Lemma last_row_length : forall items columns, length (last_row items columns) = columns.
Proof.
  intros items columns. unfold last_row. rewrite <- (rev_involutive items).
  induction (rev items) as [|x r IH]; simpl.
  - apply repeat_length.
  - rewrite fold_left_app. simpl. rewrite next_row_length. exact IH.
Qed.

Lemma OPT_nil : forall c, OPT [] c = 0%Z.
Proof.
  intros c. apply is_opt_OPT. split.
  - exists []. unfold feasible, weight, value. simpl. split; [split|]; auto; lia.
  - intros m [Hl _]. destruct m; [|discriminate]. unfold value. simpl. lia.
Qed.

(** Theorem of proofs/03: every cell of the last row is [OPT]. *)
Theorem table_opt : forall items columns c, c < columns ->
  nth c (last_row items columns) 0%Z = OPT items c.
Proof.
  intros items columns. unfold last_row. rewrite <- (rev_involutive items).
  induction (rev items) as [|[w v] r IH]; simpl; intros c H.
  - rewrite nth_repeat, OPT_nil. reflexivity.
  - rewrite fold_left_app. simpl.
    pose proof (last_row_length (rev r) columns) as Hlen. unfold last_row in Hlen.
    rewrite next_row_nth by lia. rewrite OPT_snoc, !IH by lia. reflexivity.
Qed.

(** The backtracking of [reference/table.py]: from the last item down, leave
    item [i] out when the table's cell does not change without it; the mask
    is in index order. *)
Fixpoint backtrack (ritems : list item) (c : nat) : list bool :=
  match ritems with
  | [] => []
  | x :: r =>
      if (nth c (last_row (rev r ++ [x]) (S c)) 0 =? nth c (last_row (rev r) (S c)) 0)%Z
      then backtrack r c ++ [false]
      else backtrack r (c - fst x) ++ [true]
  end.

Definition table_solve (items : list item) (C : nat) : list bool := backtrack (rev items) C.

Lemma backtrack_opt : forall r C,
  feasible (rev r) C (backtrack r C) /\ value (rev r) (backtrack r C) = OPT (rev r) C.
Proof.
  induction r as [|[w v] r IH]; intros C; simpl.
  - rewrite OPT_nil. unfold feasible, weight, value. simpl. split; [split|]; auto; lia.
  - rewrite !table_opt, OPT_snoc by lia.
    destruct (Nat.ltb_spec C w) as [Hc|Hc].
    + rewrite Z.eqb_refl. destruct (IH C) as [[Hl Hw] Hv]. split; [split|].
      * rewrite !app_length; simpl; lia.
      * rewrite weight_app, weight_one by auto. lia.
      * rewrite value_app, value_one by auto. lia.
    + destruct (Z.eqb_spec (Z.max (OPT (rev r) C) (v + OPT (rev r) (C - w))) (OPT (rev r) C))
        as [E|E].
      * destruct (IH C) as [[Hl Hw] Hv]. split; [split|].
        -- rewrite !app_length; simpl; lia.
        -- rewrite weight_app, weight_one by auto. lia.
        -- rewrite value_app, value_one by auto. lia.
      * destruct (IH (C - w)) as [[Hl Hw] Hv]. simpl. split; [split|].
        -- rewrite !app_length; simpl; lia.
        -- rewrite weight_app, weight_one by auto. lia.
        -- rewrite value_app, value_one by auto. lia.
Qed.

Theorem table_solve_opt : forall items C,
  feasible items C (table_solve items C) /\ value items (table_solve items C) = OPT items C.
Proof.
  intros items C. unfold table_solve.
  pose proof (backtrack_opt (rev items) C) as H. rewrite rev_involutive in H. exact H.
Qed.
