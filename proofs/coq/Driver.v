(** * The fixed recursion: the shape of optimized/driver.py (proofs/06, Corollary 6.2)

    [solve small fuel items C] (for [_solve_segment]):
    1. keep the items that fit [C] ([fits]); if they weigh at most [C]
       together, save them all;
    2. if there are at most [small C] of them, solve them with the table
       ([table_solve], the backtracking of reference/table.py, like
       [backend.solve_small]);
    3. otherwise split them into halves [A] (first [length / 2]) and [B],
       take the first maximiser [c] of [L[c] + R[C - c]] over the split range
       [a..b] of Lemma 6.3 ([best_split], profiles from the table), and solve
       [(A, c)] and [(B, C - c)].
    The answer is a mask over [items]. [small] stands for
    [min(_BASE_CASE_ITEMS, backend.small_items(C))] and is arbitrary: the
    theorem holds for every choice. [fuel] bounds the depth ([driver] gives
    [length items]); the theorem holds for every fuel, since out of fuel the
    table answers. *)

From Coq Require Import List Arith ZArith Lia.
From Knapsack Require Import Spec Split Table.
Import ListNotations.

Definition fits (C : nat) (x : item) : bool := fst x <=? C.

(** Put a mask over the kept items back in place, [false] at the dropped ones. *)
Fixpoint expand (keep : list bool) (m : list bool) : list bool :=
  match keep, m with
  | [], _ => []
  | true :: k, b :: m' => b :: expand k m'
  | true :: k, [] => false :: expand k []
  | false :: k, _ => false :: expand k m
  end.

Definition profile (items : list item) (C c : nat) : Z := nth c (last_row items (S C)) 0%Z.

Definition best_split (A B : list item) (C : nat) : nat :=
  let a := C - wsum B in
  let b := Nat.min C (wsum A) in
  a + argmax (fun j => profile A C (a + j) + profile B C (C - (a + j)))%Z (b - a).

Fixpoint solve (small : nat -> nat) (fuel : nat) (items : list item) (C : nat) : list bool :=
  let kept := filter (fits C) items in
  expand (map (fits C) items)
    (if wsum kept <=? C then repeat true (length kept)
     else match fuel with
          | 0 => table_solve kept C
          | S f =>
              if length kept <=? small C then table_solve kept C
              else
                let h := length kept / 2 in
                let A := firstn h kept in
                let B := skipn h kept in
                let c := best_split A B C in
                solve small f A c ++ solve small f B (C - c)
          end).

Definition driver (small : nat -> nat) (items : list item) (C : nat) : list bool :=
  solve small (length items) items C.

(** ** Step 1: dropping the items that do not fit *)

Lemma expand_spec : forall C items m, length m = length (filter (fits C) items) ->
  length (expand (map (fits C) items) m) = length items /\
  pick items (expand (map (fits C) items) m) = pick (filter (fits C) items) m.
Proof.
  intros C. induction items as [|x xs IH]; intros m H; simpl in *; auto.
  destruct (fits C x).
  - destruct m as [|b m]; simpl in H; [discriminate|]. simpl.
    destruct (IH m ltac:(lia)) as [H1 H2]. rewrite H1, H2. auto.
  - simpl. destruct (IH m H) as [H1 H2]. rewrite H1, H2. auto.
Qed.

Lemma pick_filter : forall C items m, length m = length items -> wsum (pick items m) <= C ->
  exists m', length m' = length (filter (fits C) items) /\
             pick (filter (fits C) items) m' = pick items m.
Proof.
  intros C. induction items as [|x xs IH]; intros m Hl Hw.
  - exists []. destruct m; auto.
  - destruct m as [|b m]; simpl in Hl; [discriminate|].
    assert (Hw' : wsum (pick xs m) <= C) by (destruct b; simpl in Hw; lia).
    destruct (IH m ltac:(lia) Hw') as [m' [H1 H2]].
    simpl. destruct (fits C x) eqn:F.
    + exists (b :: m'). simpl. rewrite H1, H2. auto.
    + exists m'. destruct b; simpl in *; auto.
      unfold fits in F. apply Nat.leb_gt in F. lia.
Qed.

Lemma OPT_filter : forall items C, OPT items C = OPT (filter (fits C) items) C.
Proof.
  intros items C. apply is_opt_OPT. split.
  - destruct (OPT_attained (filter (fits C) items) C) as [m [[Hl Hw] Hv]].
    destruct (expand_spec C items m Hl) as [H1 H2].
    exists (expand (map (fits C) items) m). unfold feasible, weight, value in *.
    rewrite H1, H2. auto.
  - intros m [Hl Hw]. unfold weight in Hw.
    destruct (pick_filter C items m Hl Hw) as [m' [H1 H2]].
    unfold value. rewrite <- H2. apply OPT_upper. split; auto. unfold weight. rewrite H2. exact Hw.
Qed.

(** ** Step 1 continued: everything fits *)

Lemma pick_all : forall l, pick l (repeat true (length l)) = l.
Proof. induction l; simpl; f_equal; auto. Qed.

Lemma vsum_nonneg : forall l, Forall (fun x => (0 <= snd x)%Z) l -> (0 <= vsum l)%Z.
Proof. induction l as [|x l IH]; intros H; simpl; inversion H; subst; [lia|]. specialize (IH H3). lia. Qed.

Lemma vsum_pick_le : forall l m, Forall (fun x => (0 <= snd x)%Z) l -> (vsum (pick l m) <= vsum l)%Z.
Proof.
  induction l as [|x l IH]; intros m H; destruct m as [|b m]; simpl; inversion H; subst.
  - lia.
  - lia.
  - pose proof (vsum_nonneg l H3). lia.
  - destruct b; simpl; specialize (IH m H3); lia.
Qed.

(** ** Step 3: the split range of Lemma 6.3 holds a global maximiser *)

Lemma OPT_full : forall l c, wsum l <= c -> OPT l c = OPT l (wsum l).
Proof.
  intros l c H. apply Z.le_antisymm; [|apply OPT_mono; exact H].
  destruct (OPT_attained l c) as [m [[Hl Hw] <-]]. apply OPT_upper. split; auto.
  apply weight_le_wsum.
Qed.

Lemma maxc_ext : forall g1 g2 C, (forall c, c <= C -> g1 c = g2 c) -> maxc g1 C = maxc g2 C.
Proof.
  induction C as [|C IH]; intros H; simpl; [apply H; lia|].
  rewrite IH, H; [reflexivity | lia | intros; apply H; lia].
Qed.

Lemma argmax_ext : forall g1 g2 C, (forall c, c <= C -> g1 c = g2 c) -> argmax g1 C = argmax g2 C.
Proof.
  induction C as [|C IH]; intros H; simpl; auto.
  rewrite (maxc_ext g1 g2 C), IH, H; [reflexivity | lia | intros; apply H; lia | intros; apply H; lia].
Qed.

Lemma best_split_max : forall A B C, C < wsum A + wsum B ->
  best_split A B C <= C /\
  split_value A B C (best_split A B C) = maxc (split_value A B C) C.
Proof.
  intros A B C Hfit. unfold best_split.
  set (a := C - wsum B). set (b := Nat.min C (wsum A)).
  assert (Hab : a <= b) by (unfold a, b; lia).
  set (g := fun j => split_value A B C (a + j)).
  rewrite (argmax_ext _ g (b - a)).
  2:{ intros j Hj. unfold g, split_value, profile. rewrite !table_opt by lia. reflexivity. }
  destruct (argmax_spec g (b - a)) as [H1 [H2 _]].
  assert (Hle : a + argmax g (b - a) <= C) by lia.
  split; [exact Hle|]. apply Z.le_antisymm; [apply maxc_ge; exact Hle|].
  destruct (maxc_attained (split_value A B C) C) as [c [Hc <-]].
  fold (g (argmax g (b - a))). rewrite H2.
  unfold split_value.
  destruct (Nat.lt_ge_cases c a) as [Lt|Ge].
  - (* the right half fits whole at C - c and at C - a *)
    pose proof (maxc_ge g (b - a) 0 ltac:(lia)) as M.
    change (g 0) with (split_value A B C (a + 0)) in M. unfold split_value in M.
    rewrite Nat.add_0_r in M.
    rewrite (OPT_full B (C - c)), <- (OPT_full B (C - a)) by (unfold a in *; lia).
    pose proof (OPT_mono A c a ltac:(lia)). lia.
  - destruct (Nat.le_gt_cases c b) as [Le|Gt].
    + pose proof (maxc_ge g (b - a) (c - a) ltac:(lia)) as M.
    change (g (c - a)) with (split_value A B C (a + (c - a))) in M. unfold split_value in M.
      replace (a + (c - a)) with c in M by lia. exact M.
    + (* the left half fits whole at c and at b *)
      pose proof (maxc_ge g (b - a) (b - a) ltac:(lia)) as M.
    change (g (b - a)) with (split_value A B C (a + (b - a))) in M. unfold split_value in M.
      replace (a + (b - a)) with b in M by lia.
      rewrite (OPT_full A c), <- (OPT_full A b) by (unfold b in *; lia).
      pose proof (OPT_mono B (C - c) (C - b) ltac:(lia)). lia.
Qed.

(** ** The theorem: the fixed recursion returns a feasible optimal subset *)

Definition nonneg (l : list item) : Prop := Forall (fun x => (0 <= snd x)%Z) l.

Lemma all_fit_opt : forall l C, wsum l <= C -> nonneg l ->
  feasible l C (repeat true (length l)) /\ value l (repeat true (length l)) = OPT l C.
Proof.
  intros l C All Hk.
  assert (Hf : feasible l C (repeat true (length l)))
    by (split; [apply repeat_length | unfold weight; rewrite pick_all; exact All]).
  split; [exact Hf|]. apply Z.le_antisymm; [apply OPT_upper; exact Hf|].
  destruct (OPT_attained l C) as [m [_ <-]]. unfold value. rewrite pick_all.
  apply vsum_pick_le. exact Hk.
Qed.

Lemma expand_opt : forall items C mk,
  feasible (filter (fits C) items) C mk /\
  value (filter (fits C) items) mk = OPT (filter (fits C) items) C ->
  feasible items C (expand (map (fits C) items) mk) /\
  value items (expand (map (fits C) items) mk) = OPT items C.
Proof.
  intros items C mk [[Hl Hw] Hv]. destruct (expand_spec C items mk Hl) as [H1 H2].
  unfold feasible, weight, value in *. rewrite H1, H2, OPT_filter. auto.
Qed.

Lemma nonneg_filter : forall C items, nonneg items -> nonneg (filter (fits C) items).
Proof.
  intros C items H. apply Forall_forall. intros x Hx. apply filter_In in Hx.
  exact (proj1 (Forall_forall _ _) H x (proj1 Hx)).
Qed.

Theorem solve_correct : forall small fuel items C, nonneg items ->
  feasible items C (solve small fuel items C) /\ value items (solve small fuel items C) = OPT items C.
Proof.
  intros small. induction fuel as [|f IH]; intros items C Hpos; cbn [solve];
    pose proof (nonneg_filter C items Hpos) as Hk;
    set (kept := filter (fits C) items) in *; apply expand_opt; fold kept.
  - destruct (Nat.leb_spec (wsum kept) C); [apply all_fit_opt; auto | apply table_solve_opt].
  - destruct (Nat.leb_spec (wsum kept) C) as [All|Over]; [apply all_fit_opt; auto|].
    destruct (Nat.leb_spec (length kept) (small C)) as [Small|Big]; [apply table_solve_opt|].
    set (h := length kept / 2). set (A := firstn h kept). set (B := skipn h kept).
    assert (HAB : kept = A ++ B) by (symmetry; apply firstn_skipn).
    assert (HA : nonneg A /\ nonneg B) by (apply Forall_app; rewrite <- HAB; exact Hk).
    destruct HA as [HA HB].
    assert (Hover : C < wsum A + wsum B) by (rewrite <- wsum_app, <- HAB; lia).
    destruct (best_split_max A B C Hover) as [Hc Hmax].
    destruct (IH A (best_split A B C) HA) as [HfA HvA].
    destruct (IH B (C - best_split A B C) HB) as [HfB HvB].
    rewrite HAB. apply split_recurse with (c := best_split A B C); auto.
Qed.

(** Corollary 6.2 for the driver: on items with non-negative values (the
    solver's input has [v > 0]), the answer is feasible and optimal. *)
Theorem driver_correct : forall small items C, nonneg items ->
  feasible items C (driver small items C) /\ value items (driver small items C) = OPT items C.
Proof. intros. apply solve_correct. assumption. Qed.
