(** * Index selections: the solvers' answers, tied to masks

    A selection is a list of indices into [items] ([Spec.sel_weight],
    [Spec.sel_value]); it is valid when its indices are distinct and in range.
    [OPT] is also the maximum over valid selections ([selection_upper],
    [selection_attained]), and [check_answer] is the executable check the
    differential test runs on the Python solvers' answers ([check_answer_sound]). *)

From Coq Require Import List Arith ZArith Lia Permutation.
From Knapsack Require Import Spec.
Import ListNotations.

Lemma sel_of_mask_from_S : forall m k, sel_of_mask_from (S k) m = map S (sel_of_mask_from k m).
Proof. induction m as [|b m IH]; intros k; simpl; auto. rewrite !IH. destruct b; auto. Qed.

Lemma sel_sums_shift : forall x xs s,
  sel_weight (x :: xs) (map S s) = sel_weight xs s /\ sel_value (x :: xs) (map S s) = sel_value xs s.
Proof.
  unfold sel_weight, sel_value. induction s as [|i s IH]; simpl in *; auto.
  destruct IH as [H1 H2]. split; f_equal; assumption.
Qed.

Lemma sel_sums_of_mask : forall items m, length m = length items ->
  sel_weight items (sel_of_mask m) = weight items m /\
  sel_value items (sel_of_mask m) = value items m.
Proof.
  induction items as [|x xs IH]; intros m H; destruct m as [|b m]; simpl in *;
    try discriminate; [unfold weight, value; simpl; auto|].
  unfold sel_of_mask in *. simpl. rewrite sel_of_mask_from_S.
  destruct (IH m ltac:(lia)) as [H1 H2]. destruct (sel_sums_shift x xs (sel_of_mask_from 0 m)) as [S1 S2].
  unfold weight, value in *. destruct b; simpl.
  - rewrite S1, S2, H1, H2. auto.
  - rewrite S1, S2, H1, H2. auto.
Qed.

Lemma in_sel_of_mask_from : forall m k i,
  In i (sel_of_mask_from k m) <-> k <= i /\ i < k + length m /\ nth (i - k) m false = true.
Proof.
  induction m as [|b m IH]; intros k i; simpl; [split; [tauto | lia]|].
  destruct (Nat.lt_trichotomy i k) as [Lt|[<-|Gt]].
  - split; [|lia]. intros H. destruct b; [destruct H as [E|H]; [lia|]|]; apply IH in H; lia.
  - rewrite Nat.sub_diag. split.
    + intros H. destruct b; simpl; [split; [lia | split; [lia | reflexivity]]|].
      apply IH in H. lia.
    + intros [_ [_ H]]. rewrite H. left. reflexivity.
  - replace (i - k) with (S (i - S k)) by lia.
    assert (E : In i (if b then k :: sel_of_mask_from (S k) m else sel_of_mask_from (S k) m) <->
                In i (sel_of_mask_from (S k) m)) by (destruct b; simpl; intuition lia).
    rewrite E, IH. split; intros [A [B D]]; repeat split; auto; lia.
Qed.

Lemma nodup_sel_of_mask_from : forall m k, NoDup (sel_of_mask_from k m).
Proof.
  induction m as [|b m IH]; intros k; simpl; [constructor|].
  destruct b; auto. constructor; auto. intros H. apply in_sel_of_mask_from in H. lia.
Qed.

Definition mask_of (n : nat) (s : list nat) : list bool :=
  map (fun i => existsb (Nat.eqb i) s) (seq 0 n).

Lemma nth_map_seq_bool : forall (f : nat -> bool) n c, c < n -> nth c (map f (seq 0 n)) false = f c.
Proof.
  intros f n c H. rewrite nth_indep with (d' := f 0) by (rewrite map_length, seq_length; lia).
  rewrite map_nth, seq_nth by lia. reflexivity.
Qed.

Lemma sel_of_mask_of : forall n s, valid_sel n s -> Permutation s (sel_of_mask (mask_of n s)).
Proof.
  intros n s [Hnd Hr]. apply NoDup_Permutation; [exact Hnd | apply nodup_sel_of_mask_from|].
  intros i. unfold sel_of_mask. rewrite in_sel_of_mask_from. unfold mask_of.
  rewrite map_length, seq_length, Nat.sub_0_r. split.
  - intros H. pose proof (proj1 (Forall_forall _ _) Hr i H) as Hi. cbv beta in Hi.
    split; [lia | split; [lia|]].
    rewrite nth_map_seq_bool by exact Hi. apply existsb_exists. exists i.
    split; [exact H | apply Nat.eqb_refl].
  - intros [_ [Hi H]]. rewrite nth_map_seq_bool in H by lia. apply existsb_exists in H.
    destruct H as [j [Hj E]]. apply Nat.eqb_eq in E. subst. exact Hj.
Qed.

Lemma sel_weight_perm : forall items s s', Permutation s s' -> sel_weight items s = sel_weight items s'.
Proof. intros items s s' P. unfold sel_weight. induction P; simpl; lia. Qed.

Lemma sel_value_perm : forall items s s', Permutation s s' -> sel_value items s = sel_value items s'.
Proof. intros items s s' P. unfold sel_value. induction P; simpl; lia. Qed.

(** Every valid selection weighs and is worth what a mask does, and conversely. *)
Theorem selection_upper : forall items C s,
  valid_sel (length items) s -> sel_weight items s <= C -> (sel_value items s <= OPT items C)%Z.
Proof.
  intros items C s Hv Hw. pose proof (sel_of_mask_of _ _ Hv) as P.
  set (m := mask_of (length items) s) in *.
  assert (Hl : length m = length items) by (unfold m, mask_of; rewrite map_length, seq_length; auto).
  destruct (sel_sums_of_mask items m Hl) as [H1 H2].
  rewrite (sel_value_perm _ _ _ P), H2. apply OPT_upper. split; auto.
  rewrite <- H1, <- (sel_weight_perm _ _ _ P). exact Hw.
Qed.

Theorem selection_attained : forall items C, exists s,
  valid_sel (length items) s /\ sel_weight items s <= C /\ sel_value items s = OPT items C.
Proof.
  intros items C. destruct (OPT_attained items C) as [m [[Hl Hw] Hv]].
  exists (sel_of_mask m). destruct (sel_sums_of_mask items m Hl) as [H1 H2].
  split; [split|].
  - apply nodup_sel_of_mask_from.
  - apply Forall_forall. intros i Hi. apply in_sel_of_mask_from in Hi. lia.
  - rewrite H1, H2. auto.
Qed.

(** ** The executable check of an answer *)

Fixpoint nodupb (s : list nat) : bool :=
  match s with [] => true | i :: t => negb (existsb (Nat.eqb i) t) && nodupb t end.

Definition check_answer (items : list item) (C : nat) (s : list nat) : bool :=
  nodupb s && forallb (fun i => i <? length items) s &&
  (sel_weight items s <=? C) && Z.eqb (sel_value items s) (OPT items C).

(** The statement each example of the differential test proves. *)
Definition answer_ok (items : list item) (C : nat) (s : list nat) : Prop :=
  valid_sel (length items) s /\ sel_weight items s <= C /\ sel_value items s = OPT items C.

Lemma nodupb_sound : forall s, nodupb s = true -> NoDup s.
Proof.
  induction s as [|i t IH]; simpl; intros H; constructor.
  - apply andb_prop in H. destruct H as [H _]. intros Hi. apply Bool.negb_true_iff in H.
    assert (existsb (Nat.eqb i) t = true) by (apply existsb_exists; exists i; split; auto;
      apply Nat.eqb_refl). congruence.
  - apply IH. apply andb_prop in H. tauto.
Qed.

Theorem check_answer_sound : forall items C s, check_answer items C s = true -> answer_ok items C s.
Proof.
  unfold check_answer, answer_ok. intros items C s H.
  apply andb_prop in H as [H H4]. apply andb_prop in H as [H H3]. apply andb_prop in H as [H1 H2].
  repeat split.
  - apply nodupb_sound; exact H1.
  - apply Forall_forall. intros i Hi. rewrite forallb_forall in H2. apply Nat.ltb_lt. auto.
  - apply Nat.leb_le; exact H3.
  - apply Z.eqb_eq; exact H4.
Qed.

(** An answer that passes the check is an optimal selection. *)
Theorem answer_ok_optimal : forall items C s, answer_ok items C s ->
  forall s', valid_sel (length items) s' -> sel_weight items s' <= C ->
  (sel_value items s' <= sel_value items s)%Z.
Proof. intros items C s [_ [_ ->]] s' Hv Hw. apply selection_upper; auto. Qed.
